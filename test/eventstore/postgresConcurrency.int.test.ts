import { createPostgresEventStore } from "@verdict/infra";
import { afterAll, beforeAll, describe, it } from "vitest";
import { checkConcurrentWriters, TOTAL_EVENTS } from "./concurrency.js";
import { createEventStoreTestDatabase, type TestDatabase } from "./testDatabase.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createEventStoreTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe("PostgreSQL event store under concurrency", () => {
  it(`${TOTAL_EVENTS} events from 8 writers: every reader sees each exactly once, in one order`, async () => {
    const store = await createPostgresEventStore({ connectionString: database.url, maxConnections: 10 });
    try {
      await checkConcurrentWriters(store);
    } finally {
      await store.close();
    }
  }, 300_000);
});
