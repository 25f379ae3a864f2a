// Reads a YAML script (the scripted agent's, the scripted judge's) and validates it with its zod
// schema; the first problem becomes one error naming the script and the field. An alias inside
// the node its anchor names (`a: &a [*a]`) is refused with its line: it would make a cyclic value
// that breaks later, far from the script, when a reply is written into an event.
import { recursiveAlias } from "@verdict/domain";
import { LineCounter, parseDocument } from "yaml";
import type { z } from "zod";

export function parseScript<T extends z.ZodType>(
  text: string,
  schema: T,
  describe: string,
  makeError: (message: string) => Error,
): z.output<T> {
  let document: unknown;
  try {
    document = readYaml(text);
  } catch (error) {
    throw makeError(`${describe}: invalid YAML: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(document ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw makeError(`${describe}: ${issue.path.join(".") || "(document)"}: ${issue.message}`);
  }
  return parsed.data;
}

/** YAML's `parse` (the first error thrown, aliases bounded), refusing a recursive alias. */
function readYaml(text: string): unknown {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  if (doc.errors.length > 0) throw doc.errors[0];
  const cycle = recursiveAlias(doc);
  if (cycle) throw new Error(`line ${lineCounter.linePos(cycle.offset).line}: ${cycle.rule}`);
  return doc.toJS({ maxAliasCount: 100 });
}
