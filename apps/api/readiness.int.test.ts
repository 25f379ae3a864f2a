// /readyz over a PostgreSQL read database reached through a proxy the test controls, its URL
// carrying a password (trust auth ignores it): when the network black-holes the database, and
// when nothing listens at its address any more, /readyz answers 503 within its deadline naming
// the database by host:port/database, never the password; /healthz stays 200 all along.
import { startTcpProxy, type TcpProxy } from "@verdict/infra/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { READINESS_DEADLINE_MS } from "./server/readiness.js";
import { startPlatform, type Platform } from "./testing/harness.js";

// Read by every pool and ORM the platform opens (infra/pg/settings.ts); this file runs in a process
// of its own. Past the probe's own deadline (as the default, 60 s, is), so that is what is told,
// yet short enough that a query black-holed here is given up within the test.
process.env.VERDICT_PG_QUERY_TIMEOUT_MS = "4000";
process.env.VERDICT_PG_CONNECT_TIMEOUT_MS = "1000";

const PASSWORD = "pr0be-s3cret";

let db: TestDatabase;
let proxy: TcpProxy;
let p: Platform;
let where: string;
const logged: string[] = [];
/** Errors handed to the log with a /readyz line: the server's log prints each one's stack. */
const stacks: unknown[] = [];

beforeAll(async () => {
  db = await createTestDatabase("fc_readyz");
  proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(db.url).port || 5432) });
  const url = new URL(db.url);
  url.host = `127.0.0.1:${proxy.port}`;
  url.password = PASSWORD;
  where = `127.0.0.1:${proxy.port}/${db.name}`;
  const log = (message: string, error?: unknown) => {
    logged.push(message);
    if (message.startsWith("/readyz:") && error !== undefined) stacks.push(error);
  };
  p = await startPlatform({ readUrl: url.toString(), log });
}, 60_000);
afterAll(async () => {
  await p?.close();
  await proxy?.close();
  await db?.drop();
});

async function readyz(): Promise<{ status: number; body: { status: string; reasons?: string[] }; ms: number }> {
  const started = Date.now();
  const res = await fetch(`${p.api.url}/readyz`);
  return { status: res.status, body: (await res.json()) as { status: string; reasons?: string[] }, ms: Date.now() - started };
}

it("is ready over PostgreSQL, unready saying which database when it black-holes or is gone, where it is only in the log (a probe needs no key)", async () => {
  expect(await readyz()).toMatchObject({ status: 200, body: { status: "ready" } });

  proxy.blackHole();
  const holed = await readyz();
  expect(holed.ms).toBeLessThan(READINESS_DEADLINE_MS + 1_500);
  expect(holed).toMatchObject({ status: 503, body: { status: "unready", reasons: [`read models: their database did not answer within ${READINESS_DEADLINE_MS} ms`] } });
  expect((await fetch(`${p.api.url}/healthz`)).status).toBe(200);

  // Nothing listens at the database's address any more: a refused connection, told by its code.
  await proxy.close();
  await expect.poll(async () => (await readyz()).body.reasons, { timeout: 10_000 }).toEqual([
    "read models: their database failed a trivial query (ECONNREFUSED); the API's log has the error",
  ]);
  const answer = JSON.stringify(await readyz());
  expect(answer).not.toContain(PASSWORD);
  expect(answer).not.toContain(where);
  // The log has the driver's error, the database named, the password not.
  expect(logged.some((line) => line.includes(`/readyz: read models, database at ${where}, failed a trivial query`))).toBe(true);
  // One line naming the database and the driver's message and code; no stack handed on with it (the docs promise one line).
  const failures = logged.filter((line) => line.startsWith("/readyz:"));
  expect(failures.some((line) => /failed a trivial query: .*ECONNREFUSED.* \(ECONNREFUSED\)$/.test(line))).toBe(true);
  for (const line of failures) expect(line).not.toContain("\n");
  expect(stacks).toEqual([]);
  expect(logged.join("\n")).not.toContain(PASSWORD);
}, 30_000);
