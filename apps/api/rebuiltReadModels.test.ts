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
