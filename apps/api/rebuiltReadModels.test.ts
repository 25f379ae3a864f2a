// The embedded API (one process, PGlite read models) and a rebuild it did not start from: an
// explicit one (`projector rebuild`'s single transaction) and one of stale read models batch by
// batch (an embedded home's): what it kept about a finished run before is read again after.
// `npm start` rebuilds before it serves; this is any rebuild once it serves.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createProjector } from "@verdict/projector";
import { startPlatform, type Platform } from "./testing/harness.js";
import { asVersionOne, createImportsEvaluation, hostRunIdOf, importRun } from "./testing/rebuiltRuns.js";

let p: Platform;
let evaluationId: string;

beforeAll(async () => {
  p = await startPlatform();
  evaluationId = await createImportsEvaluation(p);
}, 60_000);

afterAll(() => p?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** `promise`, or a rejection once `ms` passed (the request is still answered later). */
const inTime = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`no answer within ${ms} ms`)))]);

const eventually = (runId: string) => expect.poll(() => hostRunIdOf(p, runId), { timeout: 3_000, interval: 50 });

it("answers a finished run's rebuilt row after an explicit rebuild, without a restart", async () => {
  const runId = await importRun(p, evaluationId, "nightly-1");
  await asVersionOne(p);
  expect(await hostRunIdOf(p, runId)).toBeNull();
  expect(await hostRunIdOf(p, runId)).toBeNull();
  await p.projector.rebuild();
  await eventually(runId).toBe("nightly-1");
});

it("answers a finished run's rebuilt row after a rebuild batch by batch, having read it before and during it", async () => {
  const runId = await importRun(p, evaluationId, "nightly-2");
  await asVersionOne(p);
  expect(await hostRunIdOf(p, runId)).toBeNull();
  // Read while batches commit: the run missing (NOT_FOUND) or as rebuilt so far.
  const during: Promise<unknown>[] = [];
  const upgraded = createProjector({ store: p.store, database: p.read.sql, logSharesDatabase: true, batchSize: 2 });
  await upgraded.catchUp(() => void during.push(hostRunIdOf(p, runId).catch((error: Error) => error.message)));
  expect(during.length).toBeGreaterThan(1);
  await Promise.all(during);
  await eventually(runId).toBe("nightly-2");
});

it("answers what it kept at once while the generation read waits behind a long transaction on the read database", async () => {
  const runId = await importRun(p, evaluationId, "nightly-3");
  expect(await hostRunIdOf(p, runId)).toBe("nightly-3");
  await sleep(1_100); // the generation is due to be read again at the next request
  let release = () => {};
  // A rebuild as it commits: the row changed and the generation raised, in one long transaction.
  const rebuilding = p.read.sql.transaction(async (sql) => {
    await sql.execute("UPDATE runs SET host_run_id = 'rebuilt-3' WHERE id = ?", [runId]);
    await sql.execute("INSERT INTO projector_rebuilds (id, generation) VALUES (true, 1) ON CONFLICT (id) DO UPDATE SET generation = projector_rebuilds.generation + 1");
    await new Promise<void>((resolve) => (release = resolve));
  });
  await sleep(50);
  try {
    // Before, every request waited for the generation read, which waited for the transaction.
    const started = Date.now();
    expect(await inTime(hostRunIdOf(p, runId), 2_000)).toBe("nightly-3"); // not committed yet
    expect((await inTime(p.gql(p.keys.acmeRead, "{ __typename }"), 2_000)).body.data).toEqual({ __typename: "Query" });
    expect(Date.now() - started).toBeLessThan(1_000); // the 200 ms wait bound, and slack
  } finally {
    release();
    await rebuilding;
  }
  await eventually(runId).toBe("rebuilt-3"); // noticed once the read answers
});
