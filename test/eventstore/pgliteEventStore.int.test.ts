import type { PGlite } from "@electric-sql/pglite";
import { createPgliteEventStore } from "@verdict/infra";
import { afterAll, beforeAll, expect } from "vitest";
import { eventStoreContract } from "../contracts/eventStore.js";
import { startMigratedPglite } from "./pgliteDump.js";

let db: PGlite;
beforeAll(async () => {
  db = await startMigratedPglite();
});
afterAll(async () => {
  await db?.close();
});

// One PGlite for the file, a fresh store per case; "readAll without a filter" needs an empty log.
eventStoreContract("pglite", async (tuning) => {
  if (expect.getState().currentTestName?.includes("without a filter")) await db.exec("TRUNCATE messages, streams RESTART IDENTITY");
  return createPgliteEventStore({ db, pollIntervalMs: 200, ...tuning });
});
