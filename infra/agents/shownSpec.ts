// How a runtime setting (--agent, --judge, VERDICT_AGENT, VERDICT_JUDGE) is echoed in the error
// that refuses it. A typo such as "scriptd:agent.yaml" is worth showing back; a URL is not: it
// may carry a password, a token in its query, or be an http: spec with its prefix mistyped.

/** `(got "<value>")` for a plain value; a value that could hold a credential is not shown. */
export function shownSpec(spec: string): string {
  return /:\/\/|@|\?|#/.test(spec) ? "(value not shown: it may carry a password or a token)" : `(got ${JSON.stringify(spec)})`;
}
