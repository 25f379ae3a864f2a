// Where a PostgreSQL URL points, for messages: never the URL itself (it may hold a password).

/**
 * host:port/database of a URL, without the user or password. A password holding a `/`, `?` or
 * `#` that was not percent-encoded ends the URL's host early, so the parser reads the user as the
 * host and the rest of the password as the path: an `@` the parser did not take as the end of
 * the credentials means such a value, and nothing of it is shown. The driver also takes the host
 * and port from the query (`?host=127.0.0.1&port=6432`, or a socket directory as host), and
 * those win over the URL's own, so they are what is named.
 */
/** What whereOf says of a value it will not show. */
export const NOT_A_URL = "(a value that is not a URL)";

export function whereOf(url: string): string {
  const notShown = NOT_A_URL;
  if (!URL.canParse(url)) return notShown;
  const parsed = new URL(url);
  if (url.includes("@") && !parsed.username && !parsed.password) return notShown;
  if (/[@:]/.test(parsed.pathname)) return notShown;
  const host = parsed.searchParams.get("host") || parsed.hostname || "localhost";
  const port = parsed.searchParams.get("port") || parsed.port || "5432";
  return `${host}:${port}${parsed.pathname}`;
}
