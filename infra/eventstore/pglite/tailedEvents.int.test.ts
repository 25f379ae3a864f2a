// The embedded store's log tail answers from the events its appends sent (sql/appendedEvents.ts)
// instead of reading them back: a reader must not be able to tell. Each event the tail answers
// with (no query of the log) is compared with the same event read from the database (readAll
// without a limit), down to the order of every object's keys, the types and the recorded time,
// for appends batched into one statement and one sent alone; and the contract suite runs with
// the tail taking appends.
import { PGlite } from "@electric-sql/pglite";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventStoreContract } from "../../../test/contracts/eventStore.js";
import { startMigratedPglite } from "../../../test/eventstore/pgliteDump.js";
import type { EventStore, EventToAppend, RecordedEvent } from "../port.js";
import { createPgliteEventStore } from "./pgliteEventStore.js";

let db: PGlite;
beforeAll(async () => {
  db = await startMigratedPglite();
});
afterAll(async () => {
  await db?.close();
});

/** Queries of the log table the store sent to `db` while `during` ran. */
async function logQueries<T>(during: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const query = db.query.bind(db);
  let queries = 0;
  db.query = ((sql: string, ...rest: unknown[]) => {
    if (/FROM messages/.test(sql)) queries += 1;
    return (query as (...args: unknown[]) => unknown)(sql, ...rest);
  }) as typeof db.query;
  try {
    return { result: await during(), queries };
  } finally {
    db.query = query;
  }
}

/** Every key of every object, in listing order, with its value's type: what JSON and a deep walk see. */
function shape(value: unknown): unknown {
  if (value instanceof Date) return ["Date", value.getTime()];
  if (typeof value === "bigint") return ["bigint", value.toString()];
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === "object") return Object.keys(value).map((key) => [key, shape((value as Record<string, unknown>)[key])]);
  return [typeof value, value];
}

const TRICKY = {
  zeta: 1,
  a: { long_key_name: [3, { y: null, x: true, "10": "ten", "2": "two" }], b: "" },
  "é": "two bytes", z: "one byte", "😀": "four bytes", ab: "é😀\u0001\t\"\\",
  numbers: [0.1, 1e21, 1.5e-10, -0, 12345678901234567000, 5e-324, -1.25],
  nested: { c: { b: { a: [] } }, "": "empty key" },
};

async function take(store: EventStore, after: RecordedEvent["position"] | undefined, count: number): Promise<RecordedEvent[]> {
  const controller = new AbortController();
  const got: RecordedEvent[] = [];
  for await (const event of store.subscribeAll({ after, signal: controller.signal })) {
    got.push(event);
    if (got.length === count) controller.abort();
  }
  return got;
}

describe("PGlite store, sole writer: events its log tail takes from appends", () => {
  it("are what a read of the database returns, key order, types and recorded time included", async () => {
    const store = await createPgliteEventStore({ db, soleWriter: true, pollIntervalMs: 60_000 });
    try {
      const stream = `tail${randomUUID().slice(0, 8)}-pair`;
      // The window catches up with the log once; from then on appends are taken, not read.
      await store.append(`${stream}-first`, [{ id: randomUUID(), type: "First", schemaVersion: 1, data: {}, metadata: {} }]);
      const [caughtUp] = (await store.readAll({ limit: 100_000 })).slice(-1);
      // JSON.parse keeps "__proto__" as a key (an object literal would set the prototype).
      const data = JSON.parse(JSON.stringify(TRICKY).replace(/}$/, ',"__proto__":{"polluted":false}}')) as Record<string, unknown>;
      const appended: EventToAppend[] = [
        { id: randomUUID().toUpperCase(), type: "Tricky", schemaVersion: 3, data, metadata: { tenant: "t", zz: [1], a: { d: 1, c: 2 } } },
        { id: randomUUID(), type: "Plain", schemaVersion: 1, data: { n: 1, when: new Date(0).toISOString() }, metadata: {} },
      ];
      const { result: tailed, queries } = await logQueries(async () => {
        // One batch of three appends (one statement), the first of them two events.
        await Promise.all([store.append(stream, appended, { expectedVersion: "noStream" }), store.append(`${stream}-b`, [{ id: randomUUID(), type: "Other", schemaVersion: 1, data: { b: 2, a: 1 }, metadata: {} }]), store.append(`${stream}-c`, [{ id: randomUUID(), type: "Other", schemaVersion: 1, data: { aa: 1, b: 2 }, metadata: {} }])]);
        // And one alone (verdict_append), two events onto an existing stream.
        await store.append(`${stream}-c`, [{ id: randomUUID(), type: "More", schemaVersion: 2, data: { z: [{ b: 1, a: 2 }] }, metadata: { k: "v" } }, { id: randomUUID(), type: "More", schemaVersion: 2, data: {}, metadata: {} }]);
        return store.readAll({ after: caughtUp.position, limit: 10 });
      });
      expect(queries, "log reads besides the appends").toBe(0);
      expect(tailed).toHaveLength(6);
      expect(await take(store, caughtUp.position, 6)).toEqual(tailed);
      // readAll without a limit reads the database.
      const read = await store.readAll({ after: caughtUp.position });
      expect(tailed.map(shape)).toEqual(read.map(shape));
      expect(tailed).toEqual(read);
      expect(JSON.stringify(tailed, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v))).toBe(JSON.stringify(read, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v)));
      expect(Object.keys(tailed[0].data)).toEqual(["a", "z", "ab", "é", "zeta", "😀", "nested", "numbers", "__proto__"]);
    } finally {
      await store.close();
    }
  });
});

// The contract with the tail taking appends (one store at a time writes to the shared instance).
eventStoreContract("pglite, sole writer", async (tuning) => {
  if (expect.getState().currentTestName?.includes("without a filter")) await db.exec("TRUNCATE messages, streams RESTART IDENTITY");
  return createPgliteEventStore({ db, soleWriter: true, pollIntervalMs: 200, ...tuning });
});
