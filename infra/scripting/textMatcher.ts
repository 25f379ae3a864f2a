// A script's prompt pattern: `/body/flags` is a regex, anything else a case-insensitive substring.
// Throws `invalid regex: …` (the caller prefixes where it stands) for a regex that does not compile.
export function textMatcher(pattern: string): (text: string) => boolean {
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  if (!literal) {
    const needle = pattern.toLowerCase();
    return (text) => text.toLowerCase().includes(needle);
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
