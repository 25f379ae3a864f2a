// MikroORM 6 on a read database URL. Entities are EntitySchema objects (no decorators), handed in
// by the app that owns them. Queries use MikroORM's knex placeholders (`?`).
import type { AnyEntity, EntitySchema, MikroORM } from "@mikro-orm/postgresql";
import type pg from "pg";
import type { ReadDatabase } from "./openReadDatabase.js";
import { RepeatLimiter } from "../logging/index.js";
import { whereOf } from "../pg/where.js";
import { namedConnectFailure } from "../pg/index.js";
import { isMissingDatabase, MissingDatabaseError } from "../pg/missingDatabase.js";
import { withQueryDeadline, type QueryDeadlineOptions } from "../pg/queryDeadline.js";
import { pgSettingsFromEnv, type PgSettings } from "../pg/settings.js";

export interface ReadOrmOptions {
  entities?: EntitySchema<AnyEntity>[] | EntitySchema<any>[];
  /** Log every query (VERDICT_SQL_DEBUG=1 also turns it on). */
  debug?: boolean;
  /** Names the process in what the database driver says ("api", "projector"; default "read models"). */
  part?: string;
  /** Where the driver's warnings go (default stderr). */
  warn?: (line: string) => void;
  /** Connect timeout, TCP keepalive and query deadline of its connections (default: from the environment, VERDICT_PG_*; infra/pg). */
  settings?: PgSettings;
  /** The variable that named the database, for a refusal (default VERDICT_READ_DATABASE_URL; DATABASE_URL when it stands in for it). */
  variable?: string;
}

/**
 * knex (under MikroORM) printed its warnings bare on stdout: "Connection Error: Connection ended
 * unexpectedly" each time the pool found a connection the server had closed, with no word of
 * which process or database. Here they are one line that names both (host, port and database
 * only: the URL's credentials never), the same line at most every 30 s with its repeat count.
 */
export function knexLog(part: string, url: string, warn: (line: string) => void = (line) => console.error(line)): { warn(message: unknown): void; error(message: unknown): void; deprecate(message: unknown): void; debug(message: unknown): void } {
  const limiter = new RepeatLimiter();
  const where = `[${part}] read database ${whereOf(url)}`;
  const say = (message: unknown) => {
    const text = message instanceof Error ? message.message : String(message);
    const lost = /^Connection Error: (.*)$/s.exec(text);
    const line = lost ? `${where}: connection lost (${lost[1]}); the pool opens a new one for the next query` : `${where}: ${text}`;
    const shown = limiter.pass(line);
    if (shown !== null) warn(shown);
  };
  return { warn: say, error: say, deprecate: say, debug: () => undefined };
}

/**
 * knex's PostgreSQL dialect (MikroORM's) whose connections are pg Clients with the query
 * deadline (infra/pg/queryDeadline.ts): knex makes each one with `new driver.Client(...)`.
 * A connect that fails says where it tried.
 */
function deadlineDialect(Dialect: new (...args: any[]) => object, options: QueryDeadlineOptions & { connectTimeoutMs: number }): new (...args: any[]) => object {
  const base = Dialect.prototype as unknown as { _driver(): typeof pg; acquireRawConnection(): Promise<unknown> };
  return class extends Dialect {
    _driver(): typeof pg {
      const driver = base._driver.call(this);
      return Object.create(driver, { Client: { value: withQueryDeadline(driver.Client, options) } }) as typeof pg;
    }

    /** A connect that fails names the database, as a pool's does ("timeout expired" said nothing). */
    acquireRawConnection(): Promise<unknown> {
      return base.acquireRawConnection.call(this).catch((error: unknown) => Promise.reject(namedConnectFailure(error, options.where, options.connectTimeoutMs)));
    }
  };
}

export async function createReadOrm(database: Pick<ReadDatabase, "url" | "poolSize"> & { embedded?: boolean }, options: ReadOrmOptions = {}): Promise<MikroORM> {
  if (!database.url) throw new Error("createReadOrm: the read database has no URL (an embedded one opened with serve: false)");
  const max = database.poolSize ?? 10;
  // Loaded here, not at import: the embedded default runs without MikroORM (see infra/lazy).
  const { MikroORM, PostgreSqlKnexDialect } = await import("@mikro-orm/postgresql");
  const settings = options.settings ?? pgSettingsFromEnv();
  // An embedded PGlite served on 127.0.0.1 is one session in this process: no network to lose,
  // and a session setting there would be every connection's.
  const queryTimeoutMs = database.embedded ? null : settings.queryTimeoutMs;
  const orm = await MikroORM.init({
    clientUrl: database.url,
    // Never create the database (MikroORM's default): a typo'd URL served an empty one (missingDatabase.ts).
    ensureDatabase: false,
    // Connected below, checked once: init's own connect tries the server and only logs a failure,
    // so a read database that did not answer cost two connect timeouts before the refusal.
    connect: false,
    entities: options.entities ?? [],
    pool: { min: 0, max },
    driverOptions: {
      client: deadlineDialect(PostgreSqlKnexDialect, { where: whereOf(database.url), queryTimeoutMs, connectTimeoutMs: settings.connectTimeoutMs }),
      // Handed to each pg Client (through knex): a dead peer is found, a black hole fails to connect.
      connection: { keepAlive: true, keepAliveInitialDelayMillis: settings.keepAliveIdleMs, connectionTimeoutMillis: settings.connectTimeoutMs },
      log: knexLog(options.part ?? "read models", database.url, options.warn),
    },
    discovery: { warnWhenNoEntities: false },
    allowGlobalContext: false,
    debug: options.debug ?? process.env.VERDICT_SQL_DEBUG === "1",
  });
  await orm.config.getDriver().connect();
  await refuseUnusable(orm, options.variable ?? "VERDICT_READ_DATABASE_URL", database.url);
  return orm;
}

/**
 * MikroORM's init only logs a failed connect: the failure is thrown here, named (a missing
 * database as MissingDatabaseError), before anything is migrated or served.
 */
async function refuseUnusable(orm: MikroORM, variable: string, url: string): Promise<void> {
  const check = await orm.checkConnection();
  if (check.ok) return;
  await orm.close(true);
  throw isMissingDatabase(check.error) ? new MissingDatabaseError(variable, url, { cause: check.error }) : (check.error ?? new Error(check.reason));
}
