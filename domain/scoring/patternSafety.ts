// Which regex matches may run directly, without the one-second timeout of regexTimeout.ts (a
// watchdog thread a call). Measured on V8: `(a+)+b` and `(a|b)+c` are exponential, `a.*b.*c` on
// 8,000 characters takes over a minute (cubic), a single `.*` is quadratic at worst (~150 ms on
// 8,000). The rules, applied once when a pattern is compiled:
//   1. a quantified group that itself contains a quantifier (`(a+)+`, `(\w*\s?){2,}`) -> unsafe
//   2. a group repeated by `*`, `+` or `{n,}` that contains an alternation (`(a|b)+`) -> unsafe
//   3. three or more unbounded runs over a broad atom (`.`, `\s`, `\S`, `\w`, `\W`, `\D`, `[^…]`)
//      -> unsafe; two of them -> direct on answers of at most 1,000 characters
//   4. a source over 4,096 characters (a Ruby `\b` written over the UTF-16 word class, four
//      lookarounds of ~10 KB each, measured ~3x slower than native) -> direct on at most 1,000
//   5. otherwise direct on answers of at most 10,000 characters.
// An unsafe pattern, or a longer answer, is matched under the timeout: it still matches what it
// matches (`(\d+\.)+\d+` finds "1.2.3" at once), and a match that runs away is false after one
// second, as in the reference. A plain substring check always runs first over the whole answer.

export const REGEX_INPUT_LIMIT = 10_000;
export const WIDE_REGEX_INPUT_LIMIT = 1_000;
const LONG_SOURCE = 4_096;

export interface PatternShape {
  /** Exponential backtracking is possible: never run it without a timeout. */
  unsafe: boolean;
  /**
   * The classic exponential shape, a group repeated without bound holding a repeat without bound
   * (`(a+)+`, `(\w+\s?)*`): the part of rule 1 that is never a false alarm.
   */
  unboundedNesting: boolean;
  /** The longest text the regex may run on without a timeout. */
  inputLimit: number;
}

interface GroupFrame {
  quantified: boolean; // contains a quantifier (other than `?`)
  unbounded: boolean; // contains `*`, `+` or `{n,}`
  alternation: boolean;
}

const UNSAFE: PatternShape = { unsafe: true, unboundedNesting: false, inputLimit: 0 };

const BROAD_ESCAPES = new Set(["s", "S", "w", "W", "D"]);

/** Reads a quantifier at `i`; returns its length (0 when none) and whether it is unbounded. */
function quantifierAt(source: string, i: number): { length: number; unbounded: boolean; optionalOnly: boolean } {
  const char = source[i];
  if (char === "*" || char === "+") return { length: lazy(source, i + 1), unbounded: true, optionalOnly: false };
  if (char === "?") return { length: lazy(source, i + 1), unbounded: false, optionalOnly: true };
  if (char === "{") {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24));
    if (match) {
      const unbounded = match[2] !== undefined && match[3] === "";
      return { length: match[0].length + lazy(source, i + match[0].length) - 1, unbounded, optionalOnly: false };
    }
  }
  return { length: 0, unbounded: false, optionalOnly: false };
}

function lazy(source: string, i: number): number {
  return source[i] === "?" ? 2 : 1;
}

/** Classifies a JavaScript regex source by the rules above. */
export function patternShape(source: string): PatternShape {
  const stack: GroupFrame[] = [{ quantified: false, unbounded: false, alternation: false }];
  let broadRuns = 0;
  let i = 0;
  while (i < source.length) {
    const char = source[i];
    let atomEnd = i + 1;
    let broad = false;
    let closed: GroupFrame | null = null;
    if (char === "\\") {
      broad = BROAD_ESCAPES.has(source[i + 1]);
      atomEnd = i + 2;
    } else if (char === "[") {
      broad = source[i + 1] === "^";
      atomEnd = classEnd(source, i);
    } else if (char === "(") {
      stack.push({ quantified: false, unbounded: false, alternation: false });
      i += 1;
      continue;
    } else if (char === ")") {
      closed = stack.length > 1 ? stack.pop()! : null;
    } else if (char === "|") {
      stack[stack.length - 1].alternation = true;
      i += 1;
      continue;
    } else if (char === ".") {
      broad = true;
    }
    const quantifier = quantifierAt(source, atomEnd);
    const frame = stack[stack.length - 1];
    if (quantifier.length > 0 && !quantifier.optionalOnly) {
      if (closed && closed.unbounded && quantifier.unbounded) return { ...UNSAFE, unboundedNesting: true };
      if (closed && closed.quantified) return UNSAFE;
      if (closed && closed.alternation && quantifier.unbounded) return UNSAFE;
      frame.quantified = true;
      if (quantifier.unbounded) frame.unbounded = true;
      if (quantifier.unbounded && (broad || closed)) broadRuns += 1;
    }
    if (closed && closed.quantified) frame.quantified = true;
    if (closed && closed.unbounded) frame.unbounded = true;
    i = atomEnd + quantifier.length;
  }
  if (broadRuns >= 3) return UNSAFE;
  const wide = broadRuns === 2 || source.length > LONG_SOURCE;
  return { unsafe: false, unboundedNesting: false, inputLimit: wide ? WIDE_REGEX_INPUT_LIMIT : REGEX_INPUT_LIMIT };
}

function classEnd(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === "^") i += 1;
  if (source[i] === "]") i += 1; // a leading `]` is literal
  while (i < source.length && source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
  return i + 1;
}
