// One call that gives a process its read side: the database (PostgreSQL URL, else embedded
// PGlite), MikroORM on it with the read-model entities, the migrations applied, and the queries.
import type { MikroORM } from "@mikro-orm/postgresql";
import { createReadOrm, openReadDatabase, pgliteSqlDatabase, type ReadDatabase, type ReadDatabaseOptions } from "@verdict/infra/db";
import { ormDatabase, type SqlDatabase } from "./db/sql.js";
import { readModelEntities } from "./db/entities.js";
import { migrateReadModels } from "./db/migrator.js";
import { ReadModels } from "./readModels/readModels.js";

export interface OpenedReadModels {
  database: ReadDatabase;
  orm: MikroORM;
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

export async function openReadModels(options: ReadDatabaseOptions & { migrate?: boolean } = {}): Promise<OpenedReadModels> {
  const database = await openReadDatabase(options);
  try {
    const orm = await createReadOrm(database, { entities: readModelEntities });
    if (options.migrate !== false) await migrateReadModels(orm);
    const sql = database.pglite ? pgliteSqlDatabase(database.pglite) : ormDatabase(orm);
    return {
      database,
      orm,
      sql,
      readModels: new ReadModels(sql),
      async close() {
        await orm.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** The read database URL from the environment: VERDICT_READ_DATABASE_URL, else DATABASE_URL. */
export function readDatabaseUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.VERDICT_READ_DATABASE_URL || env.DATABASE_URL || undefined;
}
