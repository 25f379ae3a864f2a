// The API over a read database that black-holes its traffic (a proxy the test controls): a
// request answers UNAVAILABLE within the query deadline (VERDICT_PG_QUERY_TIMEOUT_MS), without
// the database's address, and the server's log names the database once; once the network
// answers again, so does the API. Before, the request hung for the OS's retransmission limit
// (~15 min) and the API said nothing.
import { startTcpProxy, type TcpProxy } from "@verdict/infra/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { startPlatform, type Platform } from "./testing/harness.js";

// Read by every pool and ORM the platform opens (infra/pg/settings.ts); this file runs in a process of its own.
process.env.VERDICT_PG_QUERY_TIMEOUT_MS = "300";
process.env.VERDICT_PG_CONNECT_TIMEOUT_MS = "1000";
/** The client gives up 300 ms after the server's own timeout would have answered. */
const DEADLINE_MS = 600;

let db: TestDatabase;
let proxy: TcpProxy;
let p: Platform;
const logged: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase("x3_api_deadline");
  proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(db.url).port || 5432) });
  const url = new URL(db.url);
  url.host = `127.0.0.1:${proxy.port}`;
  // One connection for the API and the projector together: with more, the projector's catch-up
  // could leave a second one idle, and the report route below would find it open (a query
  // deadline) instead of opening one (a connect deadline).
  p = await startPlatform({ readUrl: url.toString(), readPoolSize: 1, log: (message) => logged.push(message) });
}, 60_000);
afterAll(async () => {
  await p?.close();
  await proxy?.close();
  await db?.drop();
});

/** The read models' connection pool (knex's, a tarn.js pool). */
function readPool(): { numFree(): number; numUsed(): number; numPendingAcquires(): number } {
  const orm = p.read.orm;
  if (!orm) throw new Error("the read models have no ORM");
  return (orm.em.getConnection().getKnex().client as { pool: ReturnType<typeof readPool> }).pool;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work();
  return { value, ms: Date.now() - started };
}

it("a query over a black-holed read database answers UNAVAILABLE within the deadline, and answers again once the network does", async () => {
  const query = `{ evaluations { totalCount } }`;
  expect((await p.gql(p.keys.acmeRead, query)).body).toEqual({ data: { evaluations: { totalCount: 0 } } });
  // The network is cut with the pool's one connection open and idle (the projector's catch-up done).
  const pool = readPool();
  await expect.poll(() => ({ free: pool.numFree(), used: pool.numUsed(), waiting: pool.numPendingAcquires() }), { timeout: 10_000 }).toEqual({ free: 1, used: 0, waiting: 0 });
  proxy.blackHole();
  const { value: res, ms } = await timed(() => p.gql(p.keys.acmeRead, query));
  expect(ms).toBeLessThan(DEADLINE_MS + 2_000);
  expect(res.body.errors).toEqual([
    {
      message: "the database did not answer within 300 ms; try again later (a change this asked for may have been recorded: read it back before sending it again)",
      locations: [{ line: 1, column: 3 }],
      path: ["evaluations"],
      extensions: { code: "UNAVAILABLE" },
    },
  ]);
  expect(JSON.stringify(res.body)).not.toContain(String(proxy.port));
  // The next request opens a connection, which the black hole does not answer either
  // (VERDICT_PG_CONNECT_TIMEOUT_MS): the report route, over REST, answers 503.
  const { value: report, ms: reportMs } = await timed(() => p.get(p.keys.acmeRead, "/api/evaluations/e1/runs/r1/report.json"));
  expect(reportMs).toBeLessThan(1_000 + 2_000);
  expect(report.status).toBe(503);
  expect(await report.json()).toEqual({ error: "the database cannot be reached; try again later (a change this asked for may have been recorded: read it back before sending it again)", code: "UNAVAILABLE" });
  // And so does GraphQL, again.
  expect((await p.gql(p.keys.acmeRead, query)).body.errors[0]).toMatchObject({ message: expect.stringMatching(/^the database cannot be reached/), extensions: { code: "UNAVAILABLE" } });
  // The log names the database, in the deadline's words; a failure repeated is not logged again.
  const where = `PostgreSQL at 127.0.0.1:${proxy.port}/${db.name}`;
  expect(logged.filter((line) => line.includes("answered UNAVAILABLE"))).toEqual([
    `GraphQL operation failed at evaluations (answered UNAVAILABLE): ${where} did not answer within ${DEADLINE_MS} ms; the query was given up and its connection closed (VERDICT_PG_QUERY_TIMEOUT_MS=300, with 300 ms more for the server's own cancel to arrive)`,
    `request GET /api/evaluations/e1/runs/r1/report.json failed (answered UNAVAILABLE): timeout expired: ${where} did not answer within 1000 ms (VERDICT_PG_CONNECT_TIMEOUT_MS)`,
  ]);
  proxy.heal();
  await expect
    .poll(async () => (await p.gql(p.keys.acmeRead, query)).body, { timeout: 10_000, interval: 200 })
    .toEqual({ data: { evaluations: { totalCount: 0 } } });
}, 30_000);
