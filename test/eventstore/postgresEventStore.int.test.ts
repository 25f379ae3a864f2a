import { createPostgresEventStore } from "@verdict/infra";
import { afterAll, beforeAll, expect } from "vitest";
import { eventStoreContract } from "../contracts/eventStore.js";
import { createEventStoreTestDatabase, type TestDatabase } from "./testDatabase.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createEventStoreTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

// One database for the file, a fresh store (own pool) per case. Cases write under their own
// stream prefix; "readAll without a filter" needs an empty log, so it gets a database of its own.
let fresh: TestDatabase | null = null;
eventStoreContract("postgres", async (tuning) => {
  await fresh?.drop();
  fresh = null;
  if (expect.getState().currentTestName?.includes("without a filter")) {
    fresh = await createEventStoreTestDatabase();
    return createPostgresEventStore({ connectionString: fresh.url });
  }
  return createPostgresEventStore({ connectionString: database.url, pollIntervalMs: 200, ...tuning });
});
afterAll(async () => {
  await fresh?.drop();
});
