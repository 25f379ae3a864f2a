// Opening PostgreSQL for a command: a server that cannot be reached (or refuses the login, or has
// no such database) was `connect ECONNREFUSED 127.0.0.1:5432`, naming neither the variable that
// chose it nor what to do. The refusal names the variable, the host and port, never the URL
// itself (it may hold a password).
import { whereOf } from "@verdict/infra/pg";
import { CliError, EXIT } from "./errors.js";

/** Network and login failures a wrong or unreachable database URL gives (PostgreSQL SQLSTATEs too). */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be resolved",
  ETIMEDOUT: "the connection timed out",
  EHOSTUNREACH: "host unreachable",
  ECONNRESET: "the connection was reset",
  "28P01": "the password was refused",
  "28000": "the login was refused",
  "3D000": "no such database",
};

/** What to do when the server answered: it is the database or the login that is wrong, not the server. */
const ADVICE: Record<string, string> = {
  "3D000": "Create the database (createdb), or set",
  "28P01": "Check the user and password, or set",
  "28000": "Check the user (and the server's pg_hba.conf), or set",
};

function codeOf(error: unknown): string | undefined {
  const own = (error as { code?: unknown } | null)?.code;
  if (typeof own === "string") return own;
  // Node answers a refused connection to a name with several addresses as an AggregateError.
  const first = (error as { errors?: unknown[] } | null)?.errors?.[0];
  return first === undefined ? undefined : codeOf(first);
}

export { whereOf } from "@verdict/infra/pg";

/** `work` (opening something on `url`); an unreachable database is an error naming `variable`. */
export async function connecting<T>(variable: string, url: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const code = codeOf(error);
    if (code === undefined || !Object.hasOwn(UNREACHABLE, code)) throw error;
    const why = UNREACHABLE[code];
    const advice = ADVICE[code] ?? "Start the server, or set";
    // A read database of its own is the one to unset: the log stays where DATABASE_URL says.
    const fallback = variable === "DATABASE_URL" ? "unset DATABASE_URL for the embedded default" : `unset ${variable} to keep the read models beside the log`;
    throw new CliError(
      `${variable}: cannot use PostgreSQL at ${whereOf(url)} (${code}: ${why}). ${advice} ${variable} to one that ` +
        `is reachable (postgres://user:password@host:port/database), or ${fallback}.`,
      EXIT.unavailable,
    );
  }
}
