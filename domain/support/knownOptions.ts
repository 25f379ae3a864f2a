// Options objects a caller passes to a constructor or a reader: an option it does not read (a
// typo, `treshold`, or a snake_case spelling, `judge_name`) ran on the default without a word,
// so each is refused naming it, the option it most likely meant, and the ones it reads.
import { likelyMeant } from "./likelyMeant.js";

/** Refuses an own key of `options` that is not in `known`: `Report: unknown option treshold (did you mean threshold?); it reads …`. */
export function checkKnownOptions(owner: string, options: object, known: readonly string[]): void {
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    const meant = likelyMeant(name, known) ?? likelyMeant(camelCase(name), known);
    throw new TypeError(`${owner}: unknown option ${name}${meant ? ` (did you mean ${meant}?)` : ""}; it reads ${known.join(", ")}`);
  }
}

/** Options that must be an object (or omitted): `toHtml("dark")` was read as no options. */
export function checkOptionsObject(owner: string, options: unknown, shape: string): asserts options is object | null | undefined {
  if (options === undefined || options === null) return;
  if (typeof options !== "object" || Array.isArray(options)) throw new TypeError(`${owner}: options must be an object (${shape}), got ${described(options)}`);
}

const camelCase = (name: string): string => name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** What a value is, for an error message: "a string", "null", "an object", "a Map". */
export function described(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  const proto: unknown = typeof value === "object" ? Object.getPrototypeOf(value) : null;
  const name = typeof value !== "object" ? typeof value : proto === Object.prototype || proto === null ? "object" : (value.constructor?.name ?? "object");
  return `${/^[aeiou]/i.test(name) ? "an" : "a"} ${name}`;
}
