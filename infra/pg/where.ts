// Where a PostgreSQL URL points, for messages: never the URL itself (it may hold a password).

/**
 * host:port/database of a URL, without the user or password. A password holding a `/`, `?` or
 * `#` that was not percent-encoded ends the URL's host early, so the parser reads the user as the
 * host and the rest of the password as the path: an `@` the parser did not take as the end of
 * the credentials means such a value, and nothing of it is shown.
 */
export function whereOf(url: string): string {
  const notShown = "(a value that is not a URL)";
  if (!URL.canParse(url)) return notShown;
  const parsed = new URL(url);
  if (url.includes("@") && !parsed.username && !parsed.password) return notShown;
  if (/[@:]/.test(parsed.pathname)) return notShown;
  return `${parsed.hostname || "localhost"}:${parsed.port || "5432"}${parsed.pathname}`;
}
