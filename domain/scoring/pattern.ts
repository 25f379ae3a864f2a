// Whether a scenario's content pattern occurs in an answer (reference-core §8 `matches_pattern?`):
// a blank pattern never matches; a case-insensitive substring match wins; otherwise the pattern
// is tried as a case-insensitive regex, and one that does not compile never matches, so `$5`,
// `(approx` and `40 (sample)` work as literals while `alice|bob` works as a regex.
//
// A pattern written `/body/flags` (flags from `imsu`) is a regex only, with exactly those flags:
// the slashes say the author meant a regex, so no substring check runs.
//
// Patterns are Ruby regexes in the guide. The Ruby-only anchors are translated (`\A`, `\z`, `\Z`,
// `\h`, a leading `(?i)`), `\b` and `\B` know non-ASCII words as Ruby's do (`\bcafé\b`), and
// `^`/`$` match at every line as Ruby's do. A regex match gets the
// reference's one second (regexTimeout.ts), except where patternSafety.ts vouches that it is fast:
// a shape that cannot backtrack badly, on text no longer than its limit, runs directly.
import { patternShape } from "./patternSafety.js";
import { testWithTimeout } from "./regexTimeout.js";
import { boundarySpelling } from "./boundarySides.js";
import { type Boundaries, PROPERTY_BOUNDARIES, utf16Boundaries } from "./rubyWordChars.js";
import { toUnicodeSyntax } from "./unicodeSyntax.js";

export interface CompiledPattern {
  readonly source: string;
  /** Lower-cased text for the substring check; null when the pattern is regex-only or blank. */
  readonly literal: string | null;
  /**
   * The substring check as a flagless regex of the escaped lower-cased literal, run on the
   * lower-cased answer: measured ~25% faster than String#includes on V8 for answer-sized text.
   */
  readonly literalSearch: RegExp | null;
  /** null when blank, a plain literal or invalid. */
  readonly regex: RegExp | null;
  /** The longest answer the regex runs on directly; a longer one is matched under the timeout. */
  readonly directLimit: number;
}

const SLASHED = /^\/([\s\S]+)\/([a-z]*)$/;
/** ASCII text with no regex syntax: as a regex it would match exactly what the substring check does. */
const PLAIN_LITERAL = /^[^\\^$.|?*+()[\]{}\u0080-\uffff]*$/;
const SLASHED_FLAGS = /^[imsu]*$/;
const RUBY_ESCAPES: Readonly<Record<string, string>> = {
  A: "(?<![\\s\\S])",
  z: "(?![\\s\\S])",
  Z: "(?=\\n?(?![\\s\\S]))",
  h: "[0-9a-fA-F]",
  H: "[^0-9a-fA-F]",
};

/**
 * Compiled patterns by source; the working set is a catalog's patterns, so the caps are rarely
 * hit. The second bounds memory: a `\b` pattern that needs the UTF-16 word class holds ~42 KB of
 * regex source a boundary, and 10,000 of those would be gigabytes.
 */
const cache = new Map<string, CompiledPattern>();
const CACHE_LIMIT = 10_000;
const CACHE_SOURCE_LIMIT = 8_000_000;
let cachedSource = 0;

export function compilePattern(pattern: unknown): CompiledPattern {
  const source = pattern === null || pattern === undefined ? "" : String(pattern);
  let compiled = cache.get(source);
  if (compiled) return compiled;
  compiled = build(source);
  const size = source.length + (compiled.regex?.source.length ?? 0);
  if (cache.size >= CACHE_LIMIT || cachedSource + size > CACHE_SOURCE_LIMIT) {
    cache.clear();
    cachedSource = 0;
  }
  cache.set(source, compiled);
  cachedSource += size;
  return compiled;
}

function build(source: string): CompiledPattern {
  if (source.trim() === "") return { source, literal: null, literalSearch: null, regex: null, directLimit: 0 };
  const slashed = SLASHED.exec(source);
  if (slashed && SLASHED_FLAGS.test(slashed[2])) {
    return { source, literal: null, literalSearch: null, ...regexFor(slashed[1], slashed[2]) };
  }
  const literal = source.toLowerCase();
  const literalSearch = new RegExp(literal.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"));
  if (PLAIN_LITERAL.test(source)) return { source, literal, literalSearch, regex: null, directLimit: 0 };
  const inline = source.startsWith("(?i)") ? source.slice(4) : source;
  return { source, literal, literalSearch, ...regexFor(inline, "im") };
}

function regexFor(body: string, flags: string): { regex: RegExp | null; directLimit: number } {
  let regex: RegExp;
  try {
    regex = rubyRegex(body, flags);
  } catch {
    return { regex: null, directLimit: 0 };
  }
  const shape = patternShape(regex.source);
  return { regex, directLimit: shape.unsafe ? -1 : shape.inputLimit };
}

/**
 * A Ruby pattern body as a JavaScript regex; throws when it does not compile. A body without `\b`
 * or `\B` compiles with exactly its flags. One with them is compiled with `u`, whose property
 * escapes make the boundary about as cheap as a native one; `u` also reads `.` and `[^…]` as a
 * whole astral character and `/i` by Unicode case folding, both as Ruby does. When `u` refuses the
 * body's syntax even respelled (unicodeSyntax.ts), the boundary is written in UTF-16 instead.
 */
function rubyRegex(body: string, flags: string): RegExp {
  const translated = translate(body, PROPERTY_BOUNDARIES);
  if (!translated.boundary || flags.includes("u")) return new RegExp(translated.source, flags);
  try {
    return new RegExp(translate(toUnicodeSyntax(body), PROPERTY_BOUNDARIES).source, `${flags}u`);
  } catch {
    return new RegExp(translate(body, utf16Boundaries()).source, flags);
  }
}

/**
 * Ruby-only escapes to their JavaScript equivalents, leaving escaped backslashes and classes
 * alone; `boundary` says whether the source has a `\b` or `\B` outside a class.
 */
function translate(source: string, boundaries: Boundaries): { source: string; boundary: boolean } {
  if (!source.includes("\\")) return { source, boundary: false };
  let out = "";
  let inClass = false;
  let boundary = false;
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i];
    if (char === "\\" && i + 1 < source.length) {
      const next = source[i + 1];
      const isBoundary = !inClass && (next === "b" || next === "B");
      const escape = isBoundary ? boundarySpelling(source, i, next === "B", boundaries) : inClass ? undefined : RUBY_ESCAPES[next];
      if (isBoundary) boundary = true;
      out += escape ?? char + next;
      i += 1;
      continue;
    }
    if (char === "[") inClass = true;
    else if (char === "]") inClass = false;
    out += char;
  }
  return { source: out, boundary };
}

/**
 * Whether the compiled pattern occurs in `text`. `lower` is `text.toLowerCase()` when the caller
 * already holds it (a Replay caches its lower-cased answer for every pattern of a scenario).
 */
export function matchesCompiled(compiled: CompiledPattern, text: string, lower?: string): boolean {
  if (compiled.literalSearch !== null && compiled.literalSearch.test(lower ?? text.toLowerCase())) return true;
  const regex = compiled.regex;
  if (regex === null) return false;
  return text.length <= compiled.directLimit ? regex.test(text) : testWithTimeout(regex, text);
}

/** `Scorer.matchesPattern`: substring first, then regex, as described above. */
export function matchesPattern(text: unknown, pattern: unknown): boolean {
  const value = text === null || text === undefined ? "" : String(text);
  return matchesCompiled(compilePattern(pattern), value);
}

/**
 * Why a pattern can never match, or null: a `/body/flags` regex that does not compile. A parser
 * can call it to reject such a pattern when a scenario is read, instead of letting it silently
 * fail (or pass) every answer. A plain pattern that does not compile still works as a literal.
 */
export function patternProblem(pattern: string): string | null {
  const slashed = SLASHED.exec(pattern);
  if (slashed === null || !SLASHED_FLAGS.test(slashed[2])) return null;
  try {
    rubyRegex(slashed[1], slashed[2]);
    return null;
  } catch (error) {
    return `${pattern} is not a valid regular expression (${(error as Error).message})`;
  }
}
