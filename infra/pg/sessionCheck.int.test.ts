// Real PostgreSQL: a stalled event loop (a big report rendered, a long GC) is not a dead session.
// Before, a check's deadline was its interval (pg's query_timeout), and a timer due after a stall
// runs before the socket holding the answer is read: a healthy session was declared lost (in the
// dispatcher: leadership dropped, and the next leader republished every run's pending jobs).
import pg from "pg";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../services/testDatabase.js";
import { checkSession } from "./index.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("x5_sessioncheck");
});
afterAll(() => database.drop());

function busyWait(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // the event loop is stalled
  }
}

for (const stallMs of [500, 1_000]) {
  it(`a live session whose event loop stalls ${stallMs} ms (intervals of 200 ms) right after a check is sent is not declared lost`, async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    client.on("error", () => undefined);
    const onDead = vi.fn();
    let stalled = false;
    const query = client.query.bind(client) as (text: string) => Promise<unknown>;
    (client as unknown as { query: (text: string) => Promise<unknown> }).query = (text: string) => {
      const sent = query(text);
      if (!stalled) {
        stalled = true;
        // The check is on the wire; other work (here, in the same turn of the event loop, after
        // the sockets were polled) stalls the loop while its answer arrives.
        setImmediate(() => busyWait(stallMs));
      }
      return sent;
    };
    const check = checkSession(client, { everyMs: 200, onDead });
    try {
      await vi.waitFor(() => expect(stalled).toBe(true), { timeout: 2_000, interval: 10 });
      await new Promise((resolve) => setTimeout(resolve, 800)); // more checks come and answer
      expect(onDead).not.toHaveBeenCalled();
      expect((await query("SELECT 1 AS ok")) as { rows: unknown[] }).toMatchObject({ rows: [{ ok: 1 }] });
    } finally {
      check.stop();
      await client.end();
    }
  });
}
