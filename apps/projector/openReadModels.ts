// One call that gives a process its read side: the database (PostgreSQL URL, else embedded
// PGlite), the migrations applied, and the queries. MikroORM runs on PostgreSQL; on an embedded
// PGlite the projector and the queries use the instance itself, and MikroORM (served over
// pglite-socket) is started only when asked for: the embedded default runs without it.
import type { MikroORM } from "@mikro-orm/postgresql";
import { createReadOrm, openReadDatabase, pgliteSqlDatabase, type ReadDatabase, type ReadDatabaseOptions } from "@verdict/infra/db";
import { ormDatabase, type SqlDatabase } from "./db/sql.js";
import { migrateReadModels } from "./db/migrator.js";
import { ReadModels } from "./readModels/readModels.js";

export interface OpenReadModelsOptions extends ReadDatabaseOptions {
  /** Apply the migrations not yet applied (default true). */
  migrate?: boolean;
  /** Start MikroORM on the read database: always on PostgreSQL; on an embedded PGlite only when true. */
  orm?: boolean;
  /** Names the process in the database driver's warnings ("api", "projector"; infra/db/readOrm.ts knexLog). */
  part?: string;
  /** PostgreSQL only: the most connections MikroORM's pool opens (default the driver's, 10). A test that cuts the network sizes it to know which connections are open. */
  poolSize?: number;
  /** The variable that named `url`, for the refusal of a database that does not exist (readDatabaseVariable). */
  variable?: string;
}

export interface OpenedReadModels {
  database: ReadDatabase;
  /** MikroORM with the read-model entities; null on an embedded PGlite opened without `orm: true`. */
  orm: MikroORM | null;
  /**
   * The read models' SQL for projectors and queries: on an embedded PGlite the instance itself
   * (no socket, no wire protocol), else through `orm`. Embedded, write only through this while a
   * projector runs: PGlite keeps a transaction of `sql` apart from other `sql` callers, not from
   * statements arriving over the socket.
   */
  sql: SqlDatabase;
  readModels: ReadModels;
  close(): Promise<void>;
}

export async function openReadModels(options: OpenReadModelsOptions = {}): Promise<OpenedReadModels> {
  const wantsOrm = Boolean(options.url) || options.orm === true;
  const database = await openReadDatabase({ ...options, serve: wantsOrm });
  let orm: MikroORM | null = null;
  try {
    orm = wantsOrm ? await startOrm(options.poolSize === undefined || database.embedded ? database : { ...database, poolSize: options.poolSize }, options) : null;
    const sql = database.pglite ? pgliteSqlDatabase(database.pglite) : ormDatabase(orm as MikroORM);
    if (options.migrate !== false) await migrateReadModels(sql);
    return {
      database,
      orm,
      sql,
      readModels: new ReadModels(sql),
      async close() {
        await orm?.close();
        await database.close();
      },
    };
  } catch (error) {
    await orm?.close();
    await database.close();
    throw error;
  }
}

/** The entities' module loads MikroORM: imported here, on demand, so the embedded default never loads it. */
async function startOrm(database: Pick<ReadDatabase, "url" | "poolSize" | "embedded">, options: Pick<OpenReadModelsOptions, "part" | "variable">): Promise<MikroORM> {
  const { readModelEntities } = await import("./db/entities.js");
  return createReadOrm(database, { entities: readModelEntities, part: options.part, variable: options.variable });
}

/** The variable readDatabaseUrlFromEnv took the URL from, for messages. */
export function readDatabaseVariable(env: NodeJS.ProcessEnv = process.env): "VERDICT_READ_DATABASE_URL" | "DATABASE_URL" {
  return env.VERDICT_READ_DATABASE_URL?.trim() ? "VERDICT_READ_DATABASE_URL" : "DATABASE_URL";
}

/** The read database URL from the environment: VERDICT_READ_DATABASE_URL, else DATABASE_URL. */
export function readDatabaseUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.VERDICT_READ_DATABASE_URL?.trim() || env.DATABASE_URL?.trim() || undefined;
}
