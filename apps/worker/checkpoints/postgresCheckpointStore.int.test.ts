// Real PostgreSQL: worker processes that start together on a fresh database must not race on
// creating the checkpoint table, and a leader whose session the server ends is told, not killed.
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createTestDatabase, terminateSessions } from "../../../infra/services/testDatabase.js";
import { waitFor } from "../testing.js";
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

it("a leader whose session is terminated is told once through onLost, the process carries on, and it can lead again", async () => {
  // Before the fix the leased client had no `error` listener: the termination was an unhandled
  // error that ends the process (and fails this run).
  const leader = await PostgresCheckpointStore.create({ connectionString: database.url });
  const standby = await PostgresCheckpointStore.create({ connectionString: database.url });
  try {
    const onLost = vi.fn();
    expect(await leader.acquire("lost-test", onLost)).toBe(true);
    expect(await standby.acquire("lost-test")).toBe(false);

    expect(await terminateSessions(database.name)).toBeGreaterThanOrEqual(1);
    await waitFor(() => onLost.mock.calls.length > 0, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the client's `end` follows its `error`
    expect(onLost).toHaveBeenCalledTimes(1);
    expect(onLost.mock.calls[0][0]).toBeInstanceOf(Error);

    // The lease went with the session: acquiring opens a new one, and holds the lock again.
    const again = vi.fn();
    expect(await leader.acquire("lost-test", again)).toBe(true);
    expect(await standby.acquire("lost-test")).toBe(false);
    await leader.release("lost-test");
    expect(await standby.acquire("lost-test")).toBe(true);
    expect(again).not.toHaveBeenCalled(); // a release is not a loss
  } finally {
    await leader.close();
    await standby.close();
  }
});
