// Session settings the platform asks the server for (the server's TCP keepalive, settings.ts)
// are a help, not a condition: a server that does not know one (tcp_user_timeout before
// PostgreSQL 12: 42704) or does not let this role set it (42501) still serves the session. Sent
// as one statement, the first refusal failed the rest, and what the session was opened for (a
// leadership lock, a LISTEN): a dispatcher that could never start, live progress that stopped.
import type pg from "pg";

/** SQLSTATEs of a setting the server does not know, or does not let this role set. */
const REFUSED = new Set(["42704", "42501"]);

const reported = new Set<string>();

/** `console.warn`, once per process for each message: a refused setting is refused on every session. */
export function warnOncePerProcess(message: string): void {
  if (reported.has(message)) return;
  reported.add(message);
  console.warn(message);
}

/**
 * Sends each statement on its own. One the server refuses (unknown parameter, permission) is
 * skipped and `onRefused` is told why, in a line that names the statement; any other failure (the
 * connection lost, …) rejects. Resolves with the refused statements.
 */
export async function applyServerSettings(
  client: pg.ClientBase,
  statements: readonly string[],
  onRefused: (message: string) => void = warnOncePerProcess,
): Promise<string[]> {
  const refused: string[] = [];
  for (const statement of statements) {
    try {
      await client.query(statement);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== "string" || !REFUSED.has(code)) throw error;
      refused.push(statement);
      onRefused(`PostgreSQL refused "${statement}" (${code}: ${(error as Error).message}); the session goes on without it`);
    }
  }
  return refused;
}
