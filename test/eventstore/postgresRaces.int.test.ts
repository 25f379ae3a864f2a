// The races the PostgreSQL reading rule exists for (STACK.md): readers only see rows written by
// transactions older than every transaction still running, ordered by (transaction_id,
// global_position). Slow transactions are held open on their own connections through the same
// verdict_append function the store uses.
import { createPostgresEventStore } from "@verdict/infra";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { EventStore, RecordedEvent } from "../../domain/ports/eventStore.js";
import { event, events, expectStrictlyOrdered, take } from "../contracts/eventStore.js";
import { createEventStoreTestDatabase, type TestDatabase } from "./testDatabase.js";

let database: TestDatabase;
let store: EventStore;
const clients: pg.Client[] = [];

beforeAll(async () => {
  database = await createEventStoreTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.drop();
  database = await createEventStoreTestDatabase();
  store = await createPostgresEventStore({ connectionString: database.url, pollIntervalMs: 100 });
});
afterEach(async () => {
  await store.close();
  await Promise.all(clients.splice(0).map((client) => client.end()));
});

async function connection(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  clients.push(client);
  return client;
}

/** Appends inside an open transaction on `client`; the caller commits or rolls back. */
async function appendInOpenTransaction(client: pg.Client, streamId: string, count = 1): Promise<string[]> {
  const batch = events(count);
  await client.query("BEGIN");
  await client.query("SELECT * FROM verdict_append($1, 'any', NULL, $2::jsonb)", [streamId, JSON.stringify(batch)]);
  return batch.map((e) => e.id);
}

const idsOf = (read: RecordedEvent[]) => read.map((e) => e.id);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("PostgreSQL event store races", () => {
  it("does not pass a slow transaction that began before a fast one; both arrive in order once it commits", async () => {
    const slow = await connection();
    const slowIds = await appendInOpenTransaction(slow, "slow-1");
    const fast = await store.append("fast-1", [event()]);
    const seen: RecordedEvent[] = [];
    const subscription = take(store, 2, { onEvent: (e) => void seen.push(e) });

    await sleep(300);
    expect(await store.readAll()).toEqual([]);
    expect(seen).toEqual([]);

    await slow.query("COMMIT");
    const delivered = await subscription;
    const all = await store.readAll();
    expect(idsOf(all)).toEqual([...slowIds, ...idsOf(delivered).slice(1)]);
    expect(idsOf(delivered)).toEqual(idsOf(all));
    expect(all[1].position).toEqual(fast.position);
    expectStrictlyOrdered(all);
  });

  it("a rolled-back append leaves no hole that stalls readers", async () => {
    const doomed = await connection();
    await store.append("before-1", [event()]);
    await appendInOpenTransaction(doomed, "doomed-1", 3);
    const after = await store.append("after-1", [event()]);
    expect(await store.readAll()).toHaveLength(1);
    await doomed.query("ROLLBACK");

    const all = await store.readAll();
    expect(all.map((e) => e.streamId)).toEqual(["before-1", "after-1"]);
    expect(all[1].position).toEqual(after.position);
    // The subscription does not wait on the sequence gap either.
    const started = Date.now();
    expect((await take(store, 2, { timeoutMs: 2_000 })).map((e) => e.streamId)).toEqual(["before-1", "after-1"]);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await store.streamVersion("doomed-1")).toBeNull();
  });

  it("an open transaction in another database does not hold readers back", async () => {
    const elsewhere = new pg.Client({ connectionString: database.url.replace(/\/[^/?]+(\?|$)/, "/postgres$1") });
    await elsewhere.connect();
    clients.push(elsewhere);
    await elsewhere.query("BEGIN");
    await elsewhere.query("SELECT pg_current_xact_id()");
    const appended = await store.append("here-1", [event()]);
    const [read] = await store.readAll();
    expect(read?.position).toEqual(appended.position);
    expect((await take(store, 1, { timeoutMs: 2_000 }))[0].id).toBe(read.id);
    await elsewhere.query("ROLLBACK");
  });

  it("a reader never sees a commit behind its checkpoint, under writers that commit out of order and roll back", async () => {
    const writers = await Promise.all(Array.from({ length: 6 }, () => connection()));
    let stop = false;
    const committed = new Set<string>();
    const write = async (client: pg.Client, w: number) => {
      for (let n = 0; n < 40; n += 1) {
        const ids = await appendInOpenTransaction(client, `w${w}-${n % 3}`, 1 + (n % 3));
        // Hold some transactions open so later ones commit first; roll a few back.
        await sleep((n * 7 + w * 13) % 5 === 0 ? 30 : (n + w) % 3);
        if ((n + w) % 11 === 0) {
          await client.query("ROLLBACK");
        } else {
          await client.query("COMMIT");
          ids.forEach((id) => committed.add(id));
        }
      }
    };
    // The reader pages continuously while the writers run and checks each page extends what it
    // has read so far; the final log must equal the concatenation of its pages.
    const read: RecordedEvent[] = [];
    const reader = (async () => {
      while (!stop) {
        const page = await store.readAll({ after: read.at(-1)?.position, limit: 7 });
        read.push(...page);
        if (page.length === 0) await sleep(2);
      }
    })();
    await Promise.all(writers.map((client, w) => write(client, w)));
    stop = true;
    await reader;
    for (let page = await store.readAll({ after: read.at(-1)?.position }); page.length > 0; page = []) read.push(...page);

    const all = await store.readAll();
    expect(all).toHaveLength(committed.size);
    expect(new Set(idsOf(all))).toEqual(committed);
    expect(idsOf(read)).toEqual(idsOf(all));
    expectStrictlyOrdered(all);
  });
});
