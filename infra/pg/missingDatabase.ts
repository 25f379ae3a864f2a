// A URL naming a database the server does not have. PostgreSQL's own line, `database "x" does not
// exist (PostgreSQL at …)`, named neither the variable that chose it nor what to do; and the read
// models' ORM created such a database silently (MikroORM's default), so a typo'd
// VERDICT_READ_DATABASE_URL served empty read models and answered valid keys "unknown or revoked".
// Databases are never created here: the refusal names the variable, the database and createdb.
import { NOT_A_URL, whereOf } from "./where.js";

/** PostgreSQL's SQLSTATE for "database does not exist". */
export const NO_SUCH_DATABASE = "3D000";

export class MissingDatabaseError extends Error {
  /** The SQLSTATE, kept: callers that map codes (the CLI's exit 4) still see what it is. */
  readonly code = NO_SUCH_DATABASE;

  constructor(variable: string, url: string, options?: { cause?: unknown }) {
    const name = databaseNameOf(url);
    super(
      `${variable}: database "${name}" does not exist (PostgreSQL at ${whereOf(url)}). ` +
        `Create it (createdb ${name}), or set ${variable} to a database that exists`,
      options,
    );
    this.name = "MissingDatabaseError";
  }
}

/** Whether `error` is the server saying the database does not exist. */
export function isMissingDatabase(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === NO_SUCH_DATABASE;
}

/** `work` (what opens `url`); a missing database is a MissingDatabaseError naming `variable`. */
export async function namingMissingDatabase<T>(variable: string, url: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isMissingDatabase(error) || error instanceof MissingDatabaseError) throw error;
    throw new MissingDatabaseError(variable, url, { cause: error });
  }
}

/** The database a URL names (its path), for the message; never the credentials. */
function databaseNameOf(url: string): string {
  // As whereOf: a value whereOf will not show (a password's unencoded `/` made the rest of it the path) shows no name either.
  if (!URL.canParse(url) || whereOf(url) === NOT_A_URL) return "(not shown)";
  const path = new URL(url).pathname.slice(1);
  try {
    return decodeURIComponent(path) || "(none: the user's name)";
  } catch {
    return path;
  }
}
