// `verdict run --metadata KEY=VALUE` (repeatable): the host's own run metadata (a CI build, a
// branch, a commit), each value text, added after the keys the run writes itself. The report shows
// it as the library's Report does (the Markdown's Metadata: line, the page's chips, report.json's
// `metadata`).
import type { ParsedFlags } from "./args.js";
import { CliError } from "./errors.js";

/** Keys the library writes on a run's metadata (Correlation's trace ids), which a report shows apart or not at all. */
const LIBRARY_KEYS = ["judge_trace_ids"] as const;

/**
 * The metadata the flags give, in their order; a usage error naming --metadata when one is not
 * KEY=VALUE with a key, repeats a key (one of the two would be dropped unsaid), or names a key
 * the run writes itself (`own`: the catalog, product, set and digest it ran, which a report read
 * later must not misstate).
 */
export function metadataFromFlags(command: string, flags: ParsedFlags, own: readonly string[]): Record<string, string> {
  const entries: [string, string][] = [];
  for (const given of flags.lists.metadata ?? []) {
    const at = given.indexOf("=");
    const key = at < 0 ? "" : given.slice(0, at);
    if (key.trim() === "") throw new CliError(`verdict ${command}: --metadata must be KEY=VALUE with a key before the = (got ${JSON.stringify(given)})`);
    // ` digest` or `Digest` passed the check below and read as a second "digest" in the report.
    if (key !== key.trim()) throw new CliError(`verdict ${command}: --metadata ${JSON.stringify(key)}: a key must not start or end with spaces`);
    if (given.slice(at + 1).trim() === "") throw new CliError(`verdict ${command}: --metadata ${key}: give a value after the = (an empty one shows as an empty chip)`);
    const reserved = [...own, ...LIBRARY_KEYS].find((name) => name.toLowerCase() === key.toLowerCase());
    if (reserved) throw new CliError(`verdict ${command}: --metadata ${key}: the run writes ${reserved} itself (${[...own, ...LIBRARY_KEYS].join(", ")}); name yours another way`);
    if (entries.some(([seen]) => seen === key)) throw new CliError(`verdict ${command}: --metadata ${key} is given twice; give each key once`);
    entries.push([key, given.slice(at + 1)]);
  }
  // fromEntries defines own properties: a key `__proto__` stays a key, as JSON.parse keeps it.
  return Object.fromEntries(entries);
}
