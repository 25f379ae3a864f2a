// A PostgreSQL URL checked before anything connects with it, the same way by every process that
// takes one (the worker, the projector, the API, `verdict`): pg's own answers were a bare
// "Invalid URL", or, for a URL that parses but not as meant, a DNS error for a host that was
// really the user name. The value is never echoed: it may hold a password.
import { SettingError } from "../settings/index.js";

const FORM = "postgres://user:password@host:port/database";

/**
 * An "@" after the host: a password holding a "/", "?" or "#" that was not percent-encoded ends
 * the URL's host early, so the driver takes the user name as the host (and the password's first
 * characters as the port) and the rest of the password as the database, the fragment or the
 * query's first name (a query value may hold an "@": `application_name=me@laptop`).
 */
function strayAt(url: URL): boolean {
  return /@/.test(url.pathname + url.hash) || /^\?[^=&]*@/.test(url.search);
}

/** What keeps the driver from using `url` as it was meant, or null; never the value itself. */
function databaseUrlProblem(url: string): string | null {
  // pg reads a socket directory and a database ("/var/run/postgresql verdict") as such; anything
  // else not written as a URL ("notaurl", "host=... dbname=...") it read as a database on a host
  // named "base", an unknown host (exit 4) for a setting to change.
  if (url.startsWith("/")) return null;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return `is not a connection URL: ${FORM} (or a socket directory and a database: "/var/run/postgresql verdict")`;
  // Another database's URL (mysql://) parsed, connected to PostgreSQL at its host and port, and
  // failed there as `role "u" does not exist`, exit 1: not the setting it is. The scheme holds no secret.
  const scheme = /^[a-z][a-z0-9+.-]*/i.exec(url)![0].toLowerCase();
  if (scheme !== "postgres" && scheme !== "postgresql") return `is a ${scheme}:// URL: the database must be PostgreSQL, ${FORM} (or postgresql://)`;
  if (!URL.canParse(url)) return `is not a valid URL: ${FORM}, with special characters in the password percent-encoded`;
  if (strayAt(new URL(url))) {
    return `has an "@" after the host: a "/", "?" or "#" in the password ends the host early, and the user name would be taken for the host; percent-encode them in the password ("/" as %2F, "?" as %3F, "#" as %23, "@" as %40)`;
  }
  return null;
}

/** Refuses a URL in `variable` the driver cannot use as meant: a SettingError naming it and the rule (exit 2). */
export function checkDatabaseUrl(variable: string, url: string | null | undefined): void {
  // Blank is unset, as every process reads it.
  const value = url?.trim();
  const problem = value ? databaseUrlProblem(value) : null;
  if (problem !== null) throw new SettingError(variable, `${variable} ${problem} (value not shown)`);
}
