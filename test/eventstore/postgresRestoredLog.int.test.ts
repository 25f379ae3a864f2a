// A pg_dump of the event log restored on another server keeps the old server's transaction ids,
// which order the log: past this server's, every event stayed invisible (`verdict start` called
// the log empty, "likely the wrong database") and new events sorted before them. The store now
// refuses such a log when it opens, before anything is read or written, and says how to move it.
import { createPostgresEventStore } from "@verdict/infra";
import type { EventStore } from "@verdict/domain";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LogFromAnotherServerError, resetwalCommand } from "../../infra/eventstore/postgres/restoredLog.js";
import { createEventStoreTestDatabase, type TestDatabase } from "./testDatabase.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createEventStoreTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

const event = () => ({ id: crypto.randomUUID(), type: "Noted", schemaVersion: 1, data: { n: 1 }, metadata: {} });

async function sql(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe("an event log restored from another server", () => {
  it("opens as ever when its events were written here", async () => {
    const store: EventStore = await createPostgresEventStore({ connectionString: database.url });
    try {
      await store.append("notes-1", [event(), event()]);
      expect(await store.readAll({ limit: 10 })).toHaveLength(2);
    } finally {
      await store.close();
    }
  });

  it("is refused when its events carry transaction ids this server has not given out, and nothing is written", async () => {
    // As pg_restore leaves it on a fresh server: the ids are the old server's, far ahead.
    await sql("UPDATE messages SET transaction_id = (pg_snapshot_xmax(pg_current_snapshot())::text::bigint + 5000000)::text::xid8");
    const opening = createPostgresEventStore({ connectionString: database.url });
    await expect(opening).rejects.toBeInstanceOf(LogFromAnotherServerError);
    await expect(opening).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("restored from another PostgreSQL server") });
    await expect(opening).rejects.toMatchObject({ message: expect.stringContaining("nothing was read or written") });
    await expect(opening).rejects.toMatchObject({ message: expect.stringContaining("`pg_resetwal -e 1 -x 1048576 DATADIR`") });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      expect((await client.query("SELECT count(*)::int AS n FROM messages")).rows[0].n).toBe(2);
    } finally {
      await client.end();
    }
  });
});

describe("resetwalCommand", () => {
  it("puts the next transaction in the log's next epoch, at its first pg_xact segment boundary", () => {
    expect(resetwalCommand(7028n)).toBe("pg_resetwal -e 1 -x 1048576 DATADIR");
    // Past 2^31 within an epoch: a counter set there made a fresh cluster's catalog unreadable.
    expect(resetwalCommand(3_001_000_000n)).toBe("pg_resetwal -e 1 -x 1048576 DATADIR");
    expect(resetwalCommand((3n << 32n) + 5n)).toBe("pg_resetwal -e 4 -x 1048576 DATADIR");
  });
});
