import { randomBytes } from "node:crypto";
import pg from "pg";

/** Admin connection used to create and drop per-test databases (trust auth on the local cluster). */
const defaultAdminUrl = "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  /** Connection URL of the new, empty database. */
  url: string;
  /** Database name, unique per call. */
  name: string;
  /** Drops the database, disconnecting any client still attached. Safe to call twice. */
  drop(): Promise<void>;
}

export function testAdminUrl(): string {
  return process.env.VERDICT_TEST_DATABASE_URL || defaultAdminUrl;
}

/**
 * Creates a fresh database for one test file, so suites running in parallel never see each
 * other's rows. Call `drop()` in afterAll. The name carries the pid and a random suffix.
 * `icuLocale` (e.g. "de-DE"): its text collates by that ICU locale, as an install created under
 * such a locale does, instead of the cluster's default.
 */
export async function createTestDatabase(prefix = "verdict_test", options: { icuLocale?: string } = {}): Promise<TestDatabase> {
  const adminUrl = testAdminUrl();
  const name = `${prefix}_${process.pid}_${randomBytes(5).toString("hex")}`;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new Error(`createTestDatabase: prefix must be lowercase letters, digits or _ (got "${prefix}")`);
  }
  const collation = options.icuLocale === undefined ? "" : ` TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${options.icuLocale.replace(/'/g, "''")}' LOCALE 'C.UTF-8'`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"${collation}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    name,
    async drop() {
      if (dropped) return;
      dropped = true;
      await withAdmin(adminUrl, async (client) => {
        await waitForSessionsToLeave(client, name);
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
    },
  };
}

/**
 * Ends every session on database `name` but the caller's, as a restart of the server would, and
 * waits until the server has let them go. Returns how many there were.
 */
export async function terminateSessions(name: string): Promise<number> {
  return withAdmin(testAdminUrl(), async (client) => {
    // In the select list, not the WHERE clause: PostgreSQL may evaluate a WHERE's conditions in
    // any order, and would then terminate sessions of other databases (and this one).
    const { rows } = await client.query<{ pid: number }>(
      "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [name],
    );
    const pids = rows.map((r) => r.pid);
    const deadline = Date.now() + SESSIONS_LEAVE_MS;
    while ((await client.query("SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1::int[])", [pids])).rowCount !== 0) {
      if (Date.now() >= deadline) throw new Error(`terminateSessions: sessions ${pids.join(", ")} on ${name} did not end`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return pids.length;
  });
}

// pg's Pool.end() resolves once it has asked its connections to close, not once the server has
// let them go. FORCE would terminate such a closing session, and its client then raises
// "terminating connection due to administrator command" as an unhandled error in the test
// process. Sessions that are really left open are still terminated after the wait.
const SESSIONS_LEAVE_MS = 2_000;

async function waitForSessionsToLeave(client: pg.Client, name: string): Promise<void> {
  const deadline = Date.now() + SESSIONS_LEAVE_MS;
  for (;;) {
    const { rows } = await client.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [name]);
    if (rows[0].n === 0 || Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `cannot reach the test PostgreSQL at ${redact(adminUrl)} (VERDICT_TEST_DATABASE_URL); ` +
        `start it with: bash infra/services/postgres.sh (${(error as Error).message})`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function redact(connectionString: string): string {
  const url = new URL(connectionString);
  if (url.password) url.password = "***";
  return url.toString();
}
