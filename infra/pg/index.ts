// node-postgres pools and LISTEN connections that survive a database restart or a terminated
// session, and find a dead peer in bounded time. pg emits `error` on a pool when one of its idle
// clients dies, and on a client that dies while nobody is querying it; an `error` event with no
// listener is thrown by Node and ends the process. Every pool and LISTEN connection the apps open
// goes through here. A network that black-holes traffic (no reset, no answer) is found by the
// connect timeout and TCP keepalive set here (settings.ts), a query that does not answer by the
// query deadline (queryDeadline.ts), and, for sessions that hold something while idle, by a
// periodic check (sessionCheck.ts).
import type pg from "pg";
import { loadPg } from "../lazy/index.js";
import { withQueryDeadline } from "./queryDeadline.js";
import { pgSettingsFromEnv, type PgSettings } from "./settings.js";
import { whereOf } from "./where.js";

/**
 * Lets the pool replace an idle client that the server dropped instead of crashing the process.
 * Nothing is lost: the next query on the pool opens a new connection, and a query that fails
 * because the database is really down rejects on its own.
 */
export function keepPoolAlive<P extends pg.Pool>(pool: P): P {
  pool.on("error", () => undefined);
  return pool;
}

/** host:port/database a pool connects to, for messages (never the password). */
export function poolWhere(config: pg.PoolConfig): string {
  if (config.connectionString) return whereOf(config.connectionString);
  const host = typeof config.host === "string" && config.host ? config.host : "localhost";
  return `${host}:${config.port ?? 5432}/${config.database ?? ""}`;
}

const NAMED = Symbol("verdict.pg.named");

/**
 * A connect failure that does not say where it tried (pg's "timeout expired", "Connection
 * terminated due to connection timeout") names the database's host, port and database. The
 * message is extended, not replaced: its code and its first words (isConnectionLoss) stay.
 * Here for every pool; the read models' ORM (infra/db/readOrm.ts) names its connects with it too.
 */
export function namedConnectFailure(error: unknown, where: string, timeoutMs: number): unknown {
  if (!(error instanceof Error) || (error as { [NAMED]?: boolean })[NAMED]) return error;
  Object.assign(error, { [NAMED]: true });
  const timedOut = /timeout/i.test(error.message) && !(error as { code?: unknown }).code;
  if (timedOut) Object.assign(error, { code: "ETIMEDOUT" });
  error.message = timedOut
    ? `${error.message}: PostgreSQL at ${where} did not answer within ${timeoutMs} ms (VERDICT_PG_CONNECT_TIMEOUT_MS)`
    : `${error.message} (PostgreSQL at ${where})`;
  return error;
}

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * A pg Pool (loaded lazily, see infra/lazy) with `keepPoolAlive` applied, TCP keepalive on every
 * connection, a connect timeout and a deadline on every query (`settings`, from the environment
 * unless given; queryDeadline.ts); a connection that cannot be opened fails with an error naming
 * the host. `config` may override the first two (`connectionTimeoutMillis` is the connect timeout).
 *
 * The timeout is the pg Client's own, so it times a new connection's connect (TCP, TLS, login)
 * and nothing else. The pg Pool's `connectionTimeoutMillis` would also limit how long a query
 * waits for a free client when every connection is busy: a busy but healthy database would then
 * fail queries as unreachable. Waiting for a client has no deadline here, as before timeouts.
 */
export function createPgPool(config: pg.PoolConfig, settings: PgSettings = pgSettingsFromEnv()): pg.Pool {
  const { connectionTimeoutMillis: timeoutMs = settings.connectTimeoutMs, ...rest } = config;
  const Pg = loadPg();
  const where = poolWhere(config);
  const Base = withQueryDeadline((config.Client ?? Pg.Client) as typeof pg.Client, { where, queryTimeoutMs: settings.queryTimeoutMs, connectTimeoutMs: timeoutMs });
  class TimedClient extends Base {
    constructor(options: pg.ClientConfig) {
      // A copy with every property as it is: pg-pool keeps the password non-enumerable.
      const own = Object.defineProperties({}, Object.getOwnPropertyDescriptors(options ?? {})) as pg.ClientConfig;
      super(Object.assign(own, { connectionTimeoutMillis: timeoutMs }));
    }
  }
  const pool = new Pg.Pool({
    keepAlive: true,
    keepAliveInitialDelayMillis: settings.keepAliveIdleMs,
    ...rest,
    connectionTimeoutMillis: 0, // no deadline on waiting for a free client
    Client: TimedClient as unknown as pg.PoolConfig["Client"],
  });
  // pool.query goes through pool.connect too, so this names the host for both.
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => Promise<pg.PoolClient> | undefined;
  pool.connect = ((callback?: ConnectCallback) => {
    if (callback) return connect((error, client, done) => callback(error && (namedConnectFailure(error, where, timeoutMs) as Error), client, done));
    return (connect() as Promise<pg.PoolClient>).catch((error: unknown) => Promise.reject(namedConnectFailure(error, where, timeoutMs)));
  }) as typeof pool.connect;
  return keepPoolAlive(pool);
}

export { PgListener, type PgListenerOptions } from "./pgListener.js";
export { isQueryTimeout, LIFT_QUERY_DEADLINE, queryTimeoutOf } from "./queryDeadline.js";
export { errorCauseText, isConnectionLoss } from "./connectionLoss.js";
export { checkSession, destroyClient, SESSION_CHECK_DEADLINE_INTERVALS, withSessionDeadline, type SessionCheck, type SessionCheckOptions } from "./sessionCheck.js";
export { applyServerSettings, warnOncePerProcess } from "./serverSettings.js";
export { DEFAULT_PG_SETTINGS, PG_SETTING_VARIABLES, PgSettingsError, pgSettingsFromEnv, serverKeepaliveStatements, type PgSettings } from "./settings.js";
export { whereOf } from "./where.js";
export { checkDatabaseUrl } from "./databaseUrl.js";
export { isMissingDatabase, MissingDatabaseError, namingMissingDatabase, NO_SUCH_DATABASE } from "./missingDatabase.js";
