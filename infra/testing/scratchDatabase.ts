// A test file's own PostgreSQL database with an admin connection to look at it from outside the
// code under test, made before the file's tests (with `createSql` run once) and dropped after them.
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, type TestDatabase } from "../services/testDatabase.js";

export interface ScratchDatabase {
  /** Read inside tests and hooks, not at import: both are made in the file's beforeAll. */
  readonly database: TestDatabase;
  readonly admin: pg.Client;
}

/** Call once at the top of a test file. */
export function useScratchDatabase(name: string, createSql: string): ScratchDatabase {
  let database: TestDatabase | undefined;
  let admin: pg.Client | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(name);
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(createSql);
  });
  afterAll(async () => {
    await admin?.end();
    await database?.drop();
  });
  const made = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the scratch database is made in beforeAll: read it inside a test or hook");
    return value;
  };
  return {
    get database() {
      return made(database);
    },
    get admin() {
      return made(admin);
    },
  };
}
