// A test file's own PostgreSQL database and event store, for the files that need nothing more.
// Apart from testDatabase.ts, which benchmarks import outside vitest.
import type { EventStore } from "@verdict/domain";
import { createPostgresEventStore } from "@verdict/infra";
import { afterAll, beforeAll } from "vitest";
import { createEventStoreTestDatabase, type TestDatabase } from "./testDatabase.js";

export interface PostgresEventStoreFixture {
  /** The file's store, made in its beforeAll: read it inside tests and hooks, not at import. */
  readonly store: EventStore;
  /** The database's connection string, for a test that opens a second store on it (another process's). */
  readonly url: string;
}

/** Made before the file's tests, closed and dropped after them: call once at the top of a test file. */
export function usePostgresEventStore(): PostgresEventStoreFixture {
  let database: TestDatabase | undefined;
  let store: (EventStore & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    database = await createEventStoreTestDatabase();
    store = await createPostgresEventStore({ connectionString: database.url });
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });
  return {
    get store() {
      if (!store) throw new Error("the PostgreSQL event store is made in beforeAll: read it inside a test or hook");
      return store;
    },
    get url() {
      if (!database) throw new Error("the PostgreSQL test database is made in beforeAll: read it inside a test or hook");
      return database.url;
    },
  };
}
