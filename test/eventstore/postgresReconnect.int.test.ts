// The PostgreSQL event store when the server drops its sessions (a restart,
// pg_terminate_backend): the process carries on, appends work on new connections, and live
// subscribers are woken again by LISTEN once it has reconnected (polling is set too slow here to
// be what delivers).
import { createPostgresEventStore } from "@verdict/infra";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedEvent } from "../../domain/ports/eventStore.js";
import { events } from "../contracts/eventStore.js";
import { terminateSessions } from "../../infra/services/testDatabase.js";
import { createEventStoreTestDatabase, type TestDatabase } from "./testDatabase.js";

let database: TestDatabase;

beforeAll(async () => {
  database = await createEventStoreTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the PostgreSQL event store when its sessions are terminated", () => {
  it("re-opens its LISTEN connection and wakes live subscribers with what was appended meanwhile", async () => {
    const store = await createPostgresEventStore({ connectionString: database.url, pollIntervalMs: 60_000 });
    // Appends from another store, as from another process: only NOTIFY tells `store` of them.
    const writer = await createPostgresEventStore({ connectionString: database.url });
    const controller = new AbortController();
    const received: RecordedEvent[] = [];
    const following = (async () => {
      for await (const recorded of store.subscribeAll({ filter: { streamPrefixes: ["reconnect-"] }, signal: controller.signal })) received.push(recorded);
    })();
    try {
      await new Promise((resolve) => setTimeout(resolve, 200)); // the subscriber is listening
      await writer.append("reconnect-1", events(1), { expectedVersion: "any" });
      await waitUntil(() => received.length === 1, 5_000);
      // At once, while the subscriber may still be reading: a read cut off by the termination is
      // sent again on a new connection (subscription.ts), so the subscription carries on.
      expect(await terminateSessions(database.name)).toBeGreaterThanOrEqual(3); // the pools' and LISTEN's
      await new Promise((resolve) => setTimeout(resolve, 100)); // pg sees the sockets close
      await writer.append("reconnect-2", events(2), { expectedVersion: "any" });
      // Not by polling (a minute away): by the wake-up once LISTEN is back (1 s), or by a read
      // sent again after the termination.
      await waitUntil(() => received.length === 3, 10_000);
      expect(received.map((e) => e.streamId)).toEqual(["reconnect-1", "reconnect-2", "reconnect-2"]);
    } finally {
      controller.abort();
      await following;
      await writer.close();
      await store.close();
    }
  }, 30_000);
});
