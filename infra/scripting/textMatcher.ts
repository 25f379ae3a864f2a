// A script's prompt pattern: `/body/flags` is a regex, anything else a case-insensitive substring.
// Throws `invalid regex: …` (the caller prefixes where it stands) for a regex that does not
// compile, and `unsafe regex: …` for a group repeated without bound that holds a repeat without
// bound (`(a+)+`, `(\w+\s?)*`): JavaScript regexes have no timeout and a test runs synchronously,
// so `/^(\w+\s?)*$/` on a long prompt hung the process, its replay timer and (on a worker) its
// Kafka heartbeats with it. Scripts are the operator's configuration, so only that shape, which is
// never a false alarm, is refused, and a regex reads the whole prompt (the scoring patterns'
// stricter rules and input limits, domain/scoring/patternSafety.ts, are for catalogs' patterns).
import { patternShape } from "@verdict/domain";

export function textMatcher(pattern: string): (text: string) => boolean {
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  if (!literal) {
    const needle = pattern.toLowerCase();
    return (text) => text.toLowerCase().includes(needle);
  }
  if (patternShape(literal[1]).unboundedNesting) {
    throw new Error("unsafe regex: a group repeated without bound holds a repeat without bound ((a+)+, (\\w+\\s?)*), which can run for ever on some text; write it without the nesting");
  }
  let regex: RegExp;
  try {
    // g and y would make test() stateful across calls.
    regex = new RegExp(literal[1], literal[2].replace(/[gy]/g, ""));
  } catch (error) {
    throw new Error(`invalid regex: ${(error as Error).message}`);
  }
  return (text) => regex.test(text);
}
