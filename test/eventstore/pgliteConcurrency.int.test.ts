import { createPgliteEventStore } from "@verdict/infra";
import { describe, it } from "vitest";
import { checkConcurrentWriters, TOTAL_EVENTS } from "./concurrency.js";
import { startMigratedPglite } from "./pgliteDump.js";

describe("PGlite event store under concurrency", () => {
  it(`${TOTAL_EVENTS} events from 8 writers: every reader sees each exactly once, in one order`, async () => {
    const db = await startMigratedPglite();
    const store = await createPgliteEventStore({ db });
    try {
      await checkConcurrentWriters(store);
    } finally {
      await store.close();
      await db.close();
    }
  }, 300_000);
});
