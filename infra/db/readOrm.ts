// MikroORM 6 on a read database URL. Entities are EntitySchema objects (no decorators), handed in
// by the app that owns them. Queries use MikroORM's knex placeholders (`?`).
import type { AnyEntity, EntitySchema, MikroORM } from "@mikro-orm/postgresql";
import type { ReadDatabase } from "./openReadDatabase.js";
import { pgSettingsFromEnv, type PgSettings } from "../pg/settings.js";

export interface ReadOrmOptions {
  entities?: EntitySchema<AnyEntity>[] | EntitySchema<any>[];
  /** Log every query (VERDICT_SQL_DEBUG=1 also turns it on). */
  debug?: boolean;
  /** Connect timeout and TCP keepalive of its connections (default: from the environment, VERDICT_PG_*; infra/pg). */
  settings?: PgSettings;
}

export async function createReadOrm(database: Pick<ReadDatabase, "url" | "poolSize">, options: ReadOrmOptions = {}): Promise<MikroORM> {
  if (!database.url) throw new Error("createReadOrm: the read database has no URL (an embedded one opened with serve: false)");
  const max = database.poolSize ?? 10;
  // Loaded here, not at import: the embedded default runs without MikroORM (see infra/lazy).
  const { MikroORM } = await import("@mikro-orm/postgresql");
  const settings = options.settings ?? pgSettingsFromEnv();
  return MikroORM.init({
    clientUrl: database.url,
    entities: options.entities ?? [],
    pool: { min: 0, max },
    // Handed to each pg Client (through knex): a dead peer is found, a black hole fails to connect.
    driverOptions: { connection: { keepAlive: true, keepAliveInitialDelayMillis: settings.keepAliveIdleMs, connectionTimeoutMillis: settings.connectTimeoutMs } },
    discovery: { warnWhenNoEntities: false },
    allowGlobalContext: false,
    debug: options.debug ?? process.env.VERDICT_SQL_DEBUG === "1",
  });
}
