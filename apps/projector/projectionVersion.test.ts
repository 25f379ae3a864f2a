// Read models carry the projection version that made them (projection/projectionVersion.ts): a
// projector of another version, or of a read database older than versions, rebuilds them from the
// log before it follows; one of the same version applies what is new and nothing else.
import { beforeEach, describe, expect, it } from "vitest";
import { createMemoryEventStore, createPgliteEventStore } from "@verdict/infra";
import { importedRunId, runStream, toEventsToAppend, type EventInput, type EventStore } from "@verdict/domain";
import { createProjector, type Projector } from "./projector.js";
import { readModelChecksum } from "./db/checksum.js";
import { PROJECTION_VERSION, ProjectionVersionChangedError, StaleReadModelsOfEmptyLogError, type ProjectionState } from "./projection/projectionVersion.js";
import { RebuildFromEmptyLogError } from "./projection/emptyLogRebuild.js";
import type { OrmReadModels } from "./testing/testReadModels.js";
import { useTestReadModels } from "./testing/useTestReadModels.js";
import { beginRun, commandDeps, createEvaluation, GPT, importFinishedReport, recordPair, type Deps } from "./testing/runFixture.js";

let read: OrmReadModels;
let store: EventStore;
let deps: Deps;
let told: ProjectionState[];

const readModels = useTestReadModels();
beforeEach(() => {
  read = readModels();
  store = createMemoryEventStore({ now: () => new Date("2026-11-30T12:00:00Z") });
  deps = commandDeps("acme");
  told = [];
});

const projectorOf = (extra: Partial<Parameters<typeof createProjector>[0]> = {}): Projector =>
  createProjector({ store, database: read.sql, batchSize: 4, retryDelayMs: 10, onStaleProjection: (state) => told.push(state), ...extra });
const exec = (statement: string) => read.sql.sql().execute(statement);
const storedVersion = async () => (await exec("SELECT projection_version AS v FROM projector_checkpoints"))[0] as { v: number | null };

/** A run half scored, projected, and its checksum: what a rebuild from this log gives. */
async function projectedRun() {
  await createEvaluation(store, deps, "e1", ["a", "b"]);
  const run = await beginRun(store, deps, "e1", "r1");
  await recordPair(store, deps, run, "a", GPT.label, "passed");
  await projectorOf().catchUp();
  return { run, rebuilt: await readModelChecksum(read.sql) };
}

/** What older projection code computed otherwise (an imported run's judge usage, 5f962cf). */
const computedByOlderCode = () => exec("UPDATE runs SET judge_calls = judge_calls + 1, judge_cost = 0.00407");

describe("a read database projected by another projection version", () => {
  it("is rebuilt from the log on catch-up, then stamped with this version", async () => {
    const { run, rebuilt } = await projectedRun();
    expect(await storedVersion()).toEqual({ v: PROJECTION_VERSION });
    await computedByOlderCode();
    await exec(`UPDATE projector_checkpoints SET projection_version = ${PROJECTION_VERSION - 1}`);
    expect(await projectorOf().catchUp()).toBe((await store.readAll()).length); // the rebuild's count
    expect(told).toEqual([{ stored: PROJECTION_VERSION - 1, stale: true }]);
    expect(await readModelChecksum(read.sql)).toEqual(rebuilt);
    expect(await storedVersion()).toEqual({ v: PROJECTION_VERSION });
    // Current now: the next catch-up applies only what is new.
    await recordPair(store, deps, run, "b", GPT.label, "failed");
    expect(await projectorOf().catchUp()).toBe(2);
    expect(told).toHaveLength(1);
  });

  it("is rebuilt before a started projector follows the log, when it was written before versions (null after migration 007)", async () => {
    const { run, rebuilt } = await projectedRun();
    await computedByOlderCode();
    await exec("UPDATE projector_checkpoints SET projection_version = NULL");
    const following = projectorOf();
    following.start();
    await recordPair(store, deps, run, "b", GPT.label, "failed");
    await following.waitFor((await store.readAll()).at(-1)!.position);
    await following.stop();
    expect(told).toEqual([{ stored: null, stale: true }]);
    const live = await readModelChecksum(read.sql);
    expect(live.runs).not.toEqual(rebuilt.runs); // the new pair counted
    await projectorOf().rebuild();
    expect(await readModelChecksum(read.sql)).toEqual(live);
  });

  it("is rebuilt when it holds rows but no checkpoint (an install older than checkpoints' versions, a partial restore)", async () => {
    const { rebuilt } = await projectedRun();
    await computedByOlderCode();
    await exec("DELETE FROM projector_checkpoints");
    await projectorOf().catchUp();
    expect(told).toEqual([{ stored: null, stale: true }]);
    expect(await readModelChecksum(read.sql)).toEqual(rebuilt);
  });

  it("is rebuilt batch by batch where the log shares the read models' database (the embedded home)", async () => {
    const pglite = read.database.pglite!;
    const shared = await createPgliteEventStore({ db: pglite, soleWriter: true });
    try {
      await pglite.exec("TRUNCATE messages, streams");
      store = shared;
      const { rebuilt } = await projectedRun();
      await computedByOlderCode();
      await exec(`UPDATE projector_checkpoints SET projection_version = ${PROJECTION_VERSION + 1}`); // a rollback
      await projectorOf({ logSharesDatabase: true }).catchUp();
      expect(told).toEqual([{ stored: PROJECTION_VERSION + 1, stale: true }]);
      expect(await readModelChecksum(read.sql)).toEqual(rebuilt);
      expect(await storedVersion()).toEqual({ v: PROJECTION_VERSION });
    } finally {
      await shared.close();
    }
  });

  it("is never rebuilt from an empty log, which would empty it: the projector refuses, leaving the rows", async () => {
    await projectedRun();
    await exec("DELETE FROM projector_checkpoints");
    const before = await readModelChecksum(read.sql);
    store = createMemoryEventStore();
    await expect(projectorOf().catchUp()).rejects.toThrow(StaleReadModelsOfEmptyLogError);
    // It named `rebuild` as the way to empty them; that is refused now (RebuildFromEmptyLogError).
    await expect(projectorOf().catchUp()).rejects.toThrow("or VERDICT_READ_DATABASE_URL at an empty database (createdb) to start afresh");
    expect(await readModelChecksum(read.sql)).toEqual(before);
  });

  it("is not rebuilt from an empty log on command either, in one transaction or batch by batch (embedded)", async () => {
    await projectedRun();
    const before = await readModelChecksum(read.sql);
    store = createMemoryEventStore();
    await expect(projectorOf().rebuild()).rejects.toThrow(RebuildFromEmptyLogError);
    await expect(projectorOf({ logSharesDatabase: true }).rebuild()).rejects.toThrow(RebuildFromEmptyLogError);
    expect(await readModelChecksum(read.sql)).toEqual(before);
    expect(await exec("SELECT count(*)::int AS n FROM projector_checkpoints")).toEqual([{ n: 1 }]);
  });
});

describe("a read database of this projection version", () => {
  it("is not rebuilt: catch-up applies only what the log holds after the checkpoint", async () => {
    const { run } = await projectedRun();
    await computedByOlderCode(); // stands for any row a rebuild would change
    const kept = (await readModelChecksum(read.sql)).runs;
    expect(await projectorOf().catchUp()).toBe(0);
    expect((await readModelChecksum(read.sql)).runs).toEqual(kept);
    await recordPair(store, deps, run, "b", GPT.label, "failed");
    expect(await projectorOf().catchUp()).toBe(2);
    expect(told).toEqual([]);
  });

  it("an empty one is projected from the log's start, stamped with this version", async () => {
    await createEvaluation(store, deps, "e1", ["a"]);
    await projectorOf().catchUp();
    expect(told).toEqual([]);
    expect(await storedVersion()).toEqual({ v: PROJECTION_VERSION });
  });
});

it("a following projector stops for good, applying nothing, once a projector of another version rebuilt the read models", async () => {
  const { run } = await projectedRun();
  const retried: unknown[] = [];
  const following = projectorOf({ onRetry: (error) => retried.push(error) });
  following.start();
  await following.waitFor((await store.readAll()).at(-1)!.position);
  await exec(`UPDATE projector_checkpoints SET projection_version = ${PROJECTION_VERSION + 1}`); // what its rebuild stored
  const before = await readModelChecksum(read.sql);
  await recordPair(store, deps, run, "b", GPT.label, "failed");
  await new Promise((resolve) => setTimeout(resolve, 300));
  await expect(following.stop()).rejects.toThrow(ProjectionVersionChangedError);
  expect(retried).toEqual([]);
  expect(await readModelChecksum(read.sql)).toEqual(before);
});

describe("runs.host_run_id (projection version 2, migration 008)", () => {
  const report = { models: { [GPT.label]: { provider: "openai", model: GPT.model } }, results: [{ scenario_key: "a", label: GPT.label, status: "passed", score: 1 }] };

  /** A run imported before tenant keying, as recorded then: stream run-<the envelope's run_id>, no host_run_id. */
  async function legacyImport(runId: string, number: number) {
    const data = { run_id: runId, evaluation_id: "e1", tenant: "acme", number, source: "ci", agent_name: "SupportAgent", suite: "support", digest: "d".repeat(64), report };
    const [recorded] = toEventsToAppend([{ type: "ReportImported", data } as EventInput], { tenant: "acme", actor: "old" }, deps);
    delete (recorded.data as Record<string, unknown>).host_run_id;
    await store.append(runStream(runId), [recorded], { expectedVersion: "noStream" });
  }

  const hostRunIds = async () => Object.fromEntries(((await exec("SELECT id, host_run_id FROM runs")) as { id: string; host_run_id: string | null }[]).map((r) => [r.id, r.host_run_id]));

  it("a version-1 read database, its column added empty by 008, is rebuilt from the log with the host's run_id of each imported run", async () => {
    await createEvaluation(store, deps, "e1", ["a"]);
    await beginRun(store, deps, "e1", "r1", [GPT]);
    await importFinishedReport(store, deps, "e1", "nightly-42", report);
    await legacyImport("nightly-41", 3);
    await projectorOf().catchUp();
    const imported = importedRunId("acme", "nightly-42");
    // The envelope's run_id; a legacy import's id, which was the envelope's; null for a run started here.
    const filled = { r1: null, [imported]: "nightly-42", "nightly-41": "nightly-41" };
    expect(await hostRunIds()).toEqual(filled);
    expect((await read.readModels.getRun("acme", imported))?.hostRunId).toBe("nightly-42");
    const rebuilt = await readModelChecksum(read.sql);
    // What 008 leaves in a read database version 1 projected: the rows, the column null.
    await exec("UPDATE runs SET host_run_id = NULL");
    await exec("UPDATE projector_checkpoints SET projection_version = 1");
    await projectorOf().catchUp();
    expect(told).toEqual([{ stored: 1, stale: true }]);
    expect(await hostRunIds()).toEqual(filled);
    expect(await readModelChecksum(read.sql)).toEqual(rebuilt);
    expect(await storedVersion()).toEqual({ v: PROJECTION_VERSION });
  });
});
