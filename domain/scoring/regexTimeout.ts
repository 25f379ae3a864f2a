// The reference gives each pattern match one second (reference-core §8: "a case-insensitive
// regex with a 1-second match timeout; an invalid regex or a timeout -> false"). JavaScript
// regexes have no timeout of their own, but a vm script's does interrupt one mid-backtrack, so a
// match that could be slow runs as one. It costs ~50 µs a call (a watchdog thread), so only the
// matches patternSafety.ts cannot vouch for take this path; the rest run directly.
import { createContext, Script } from "node:vm";

export const MATCH_TIMEOUT_MS = 1_000;

const sandbox = createContext({ regex: null as RegExp | null, text: "" });
const test = new Script("regex.test(text)");

/** `regex.test(text)`, or false when it has not finished within `timeoutMs` (or could not run). */
export function testWithTimeout(regex: RegExp, text: string, timeoutMs = MATCH_TIMEOUT_MS): boolean {
  sandbox.regex = regex;
  sandbox.text = text;
  try {
    return test.runInContext(sandbox, { timeout: timeoutMs }) === true;
  } catch {
    return false; // the timeout (ERR_SCRIPT_EXECUTION_TIMEOUT), or the engine's own stack limit
  } finally {
    sandbox.regex = null;
    sandbox.text = "";
  }
}
