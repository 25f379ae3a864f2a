// A script's prompt pattern: `/body/flags` is a regex, anything else a case-insensitive substring.
// Throws `invalid regex: …` (the caller prefixes where it stands) for a regex that does not compile,
// and `unsafe regex: …` for one whose shape can backtrack for ever: JavaScript regexes have no
// timeout and a test runs synchronously, so `(\w+\s?)*$` on a long prompt hung the process, its
// replay timer and (on a worker) its Kafka heartbeats with it. The shapes are the scoring
// patterns' (domain/scoring/patternSafety.ts), and so is how much of the prompt a regex may read.
import { patternShape } from "@verdict/domain";

export function textMatcher(pattern: string): (text: string) => boolean {
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  if (!literal) {
    const needle = pattern.toLowerCase();
    return (text) => text.toLowerCase().includes(needle);
  }
  const shape = patternShape(literal[1]);
  if (shape.unsafe) throw new Error("unsafe regex: a repeated group that repeats or alternates inside ((a+)+, (a|b)*) can take for ever on some text; write it without the nesting");
  let regex: RegExp;
  try {
    // g and y would make test() stateful across calls.
    regex = new RegExp(literal[1], literal[2].replace(/[gy]/g, ""));
  } catch (error) {
    throw new Error(`invalid regex: ${(error as Error).message}`);
  }
  return (text) => regex.test(text.length > shape.inputLimit ? text.slice(0, shape.inputLimit) : text);
}
