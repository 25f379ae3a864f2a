// Real PostgreSQL: worker processes that start together on a fresh database must not race on
// creating the checkpoint table.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase } from "../../../infra/services/testDatabase.js";
import { PostgresCheckpointStore } from "./postgresCheckpointStore.js";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

it("eight stores created at once on a fresh database all start and share one table", async () => {
  const stores = await Promise.all(Array.from({ length: 8 }, () => PostgresCheckpointStore.create({ connectionString: database.url })));
  await stores[0].save("dispatcher", { position: null, state: { runs: 1 } });
  for (const store of stores) expect((await store.load("dispatcher"))?.state).toEqual({ runs: 1 });
  await Promise.all(stores.map((store) => store.close()));
});
