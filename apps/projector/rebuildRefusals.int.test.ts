// The operator's walk of session 40, on real PostgreSQL: an empty database given as DATABASE_URL
// beside a live install's read database. `rebuild` emptied the read models (exit 0, rebuilt 0),
// the `run` refusal recommended that very rebuild, and the live projector, its checkpoint gone,
// named its log by a mid-log event and then refused its own read models. Each is refused now,
// with nothing written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createPostgresEventStore } from "@verdict/infra";
import type { EventStore, RunState } from "@verdict/domain";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { createProjector, type Projector } from "./projector.js";
import { readModelChecksum } from "./db/checksum.js";
import { ormDatabase, sqlOf, transactional } from "./db/sql.js";
import { applyBatch, applyInTransaction } from "./projection/applyBatch.js";
import { CheckpointGoneError, ReadModelsOfAnotherLogError } from "./projection/sameLog.js";
import { openTestReadModels, type OrmReadModels } from "./testing/testReadModels.js";
import { beginRun, commandDeps, createEvaluation, GPT, recordPair } from "./testing/runFixture.js";

const here = dirname(fileURLToPath(import.meta.url));
const TSX = import.meta.resolve("tsx");
const databases: TestDatabase[] = [];
const stores: EventStore[] = [];
const opened: OrmReadModels[] = [];

async function database(prefix: string): Promise<TestDatabase> {
  const db = await createTestDatabase(prefix);
  databases.push(db);
  return db;
}

async function storeOn(db: TestDatabase): Promise<EventStore> {
  const store = await createPostgresEventStore({ connectionString: db.url, pollIntervalMs: 100 });
  stores.push(store);
  return store;
}

async function readModelsOn(db: TestDatabase): Promise<OrmReadModels> {
  const read = await openTestReadModels({ url: db.url });
  opened.push(read);
  return read;
}

/** A log with an evaluation and a run with one pair: the install's own. */
async function liveLog(tenant: string): Promise<{ db: TestDatabase; store: EventStore; run: RunState }> {
  const db = await database("verdict_refusals_events");
  const store = await storeOn(db);
  const deps = commandDeps(tenant);
  await createEvaluation(store, deps, "e1", ["a", "b"]);
  const run = await beginRun(store, deps, "e1", "r1", [GPT]);
  await recordPair(store, deps, run, "a", GPT.label, "passed");
  return { db, store, run };
}

function projectorProcess(command: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ["--import", TSX, join(here, "main.ts"), command], { cwd: join(here, "..", ".."), env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { exited, output: () => ({ stdout, stderr }) };
}

async function checkpointRows(read: OrmReadModels): Promise<{ name: string; log_first_event: string | null }[]> {
  return ormDatabase(read.orm).sql().execute("SELECT name, log_first_event FROM projector_checkpoints ORDER BY name");
}

/** What stopped `projector`, or a failure when it is still following after `ms`. */
async function stopped(projector: Projector, ms = 15_000): Promise<unknown> {
  const timeout = new Promise((resolve) => setTimeout(() => resolve("still following"), ms));
  const outcome = await Promise.race([projector.running!.then(() => "ended without an error", (error: unknown) => error), timeout]);
  await projector.stop().catch(() => undefined);
  return outcome;
}

/** `store`, whose reads of the log past its start pause once (a rebuild's read after the log's end): the rebuild's transaction stays open. */
function pausingAfterTheLog(inner: EventStore, pauseMs: number): { store: EventStore; paused: Promise<void> } {
  let signalPaused!: () => void;
  const paused = new Promise<void>((resolve) => (signalPaused = resolve));
  let armed = true;
  const store = Object.create(inner) as EventStore;
  store.readAll = async (options = {}) => {
    const events = await inner.readAll(options);
    if (armed && options.after !== undefined) {
      armed = false;
      signalPaused();
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    return events;
  };
  return { store, paused };
}

afterAll(async () => {
  for (const read of opened) await read.close();
  for (const store of stores) await store.close();
  for (const db of databases) await db.drop();
});

describe("projector rebuild from an empty log beside a live install's read database", () => {
  let main: { db: TestDatabase; store: EventStore };
  let mainRead: TestDatabase;
  let other: TestDatabase;
  let read: OrmReadModels;

  beforeAll(async () => {
    main = await liveLog("acme");
    mainRead = await database("verdict_refusals_read");
    other = await database("verdict_refusals_empty");
    read = await readModelsOn(mainRead);
    await createProjector({ store: main.store, orm: read.orm }).rebuild();
  });

  it("refuses, exit 1, one line naming DATABASE_URL, its empty log and what a rebuild would do, and writes nothing", async () => {
    const before = await readModelChecksum(ormDatabase(read.orm));
    const checkpoints = await checkpointRows(read);
    expect(before.runs.rows).toBe(1);
    const proc = projectorProcess("rebuild", { DATABASE_URL: other.url, VERDICT_READ_DATABASE_URL: mainRead.url });
    expect(await proc.exited).toBe(1);
    const { stdout, stderr } = proc.output();
    expect(stdout).toBe("");
    expect(stderr).toBe(
      "the event log (DATABASE_URL, or VERDICT_HOME when it is unset) is empty, and the read database holds read models: " +
        "rebuilding them from an empty log would empty them, so nothing was changed. Point DATABASE_URL at the log they were projected from " +
        "(an empty log is likely the wrong database)\n",
    );
    expect(await readModelChecksum(ormDatabase(read.orm))).toEqual(before);
    expect(await checkpointRows(read)).toEqual(checkpoints);
  }, 60_000);

  it("`run` says the log is empty (likely the wrong database) and does not recommend a rebuild, nor say it is following", async () => {
    const proc = projectorProcess("run", { DATABASE_URL: other.url, VERDICT_READ_DATABASE_URL: mainRead.url });
    expect(await proc.exited).toBe(1);
    const { stdout, stderr } = proc.output();
    expect(stdout).not.toContain("projector following the log");
    expect(stderr).toContain("this event log (DATABASE_URL, or VERDICT_HOME when it is unset) is empty: likely the wrong database");
    expect(stderr).not.toContain("rebuild");
    expect(stderr.trim().split("\n")).toHaveLength(1);
  }, 60_000);

  it("still rebuilds an empty log into empty read models (a fresh install): nothing to lose", async () => {
    const freshRead = await database("verdict_refusals_fresh");
    const proc = projectorProcess("rebuild", { DATABASE_URL: other.url, VERDICT_READ_DATABASE_URL: freshRead.url });
    expect(await proc.exited).toBe(0);
    expect(JSON.parse(proc.output().stdout)).toMatchObject({ rebuilt: 0 });
  }, 60_000);
});

describe("a live projector whose read database changes under it", () => {
  it("stops when its checkpoint is gone, instead of naming its log by a mid-log event", async () => {
    const { store } = await liveLog("gone");
    const read = await readModelsOn(await database("verdict_refusals_gone"));
    const live = createProjector({ store, orm: read.orm, retryDelayMs: 50 });
    live.start();
    await live.waitFor((await store.readAll()).at(-1)!.position);
    // What a rebuild from an empty log did to it (projectorRebuild.ts clearReadModels), now refused there.
    await ormDatabase(read.orm).sql().execute("DELETE FROM projector_checkpoints");
    await recordPair(store, commandDeps("gone"), await beginRun(store, commandDeps("gone"), "e1", "r2", [GPT]), "a", GPT.label, "passed");
    expect(await stopped(live)).toBeInstanceOf(CheckpointGoneError);
    expect(await checkpointRows(read)).toEqual([]);
    // Started again, it projects its log from the start, named by the log's real first event.
    await createProjector({ store, orm: read.orm }).catchUp();
    expect(await checkpointRows(read)).toEqual([{ name: "read-models", log_first_event: (await store.readAll({ limit: 1 }))[0].id }]);
  }, 60_000);

  it("stops when another log's rebuild replaced its checkpoint, leaving that log's read models as they are", async () => {
    const mine = await liveLog("mine");
    const theirs = await liveLog("theirs");
    const read = await readModelsOn(await database("verdict_refusals_replaced"));
    const live = createProjector({ store: mine.store, orm: read.orm, retryDelayMs: 50 });
    live.start();
    await live.waitFor((await mine.store.readAll()).at(-1)!.position);
    await createProjector({ store: theirs.store, orm: read.orm }).rebuild();
    const rebuilt = await readModelChecksum(ormDatabase(read.orm));
    await beginRun(mine.store, commandDeps("mine"), "e1", "r2", [GPT]);
    const error = await stopped(live);
    expect(error).toBeInstanceOf(ReadModelsOfAnotherLogError);
    expect(await readModelChecksum(ormDatabase(read.orm))).toEqual(rebuilt);
    expect(await checkpointRows(read)).toEqual([{ name: "read-models", log_first_event: (await theirs.store.readAll({ limit: 1 }))[0].id }]);
  }, 60_000);

  it("follows on when one of its batches waited on the checkpoint row a same-log rebuild deleted and wrote again (READ COMMITTED: it sees no row at first)", async () => {
    const { store, run } = await liveLog("race");
    const read = await readModelsOn(await database("verdict_refusals_race"));
    const live = createProjector({ store, orm: read.orm, retryDelayMs: 50 });
    live.start();
    try {
      await live.waitFor((await store.readAll()).at(-1)!.position);
      // The rebuild pauses inside its transaction once it has applied the log (truncated, deleted
      // the checkpoint, written a new one; nothing committed), on its read past the log's end.
      const rebuildStore = pausingAfterTheLog(store, 2_000);
      const rebuilding = createProjector({ store: rebuildStore.store, orm: read.orm, batchSize: 1000 }).rebuild();
      await rebuildStore.paused;
      // The live projector's batch for this event locks the checkpoint row: it waits on the rebuild.
      await recordPair(store, commandDeps("race"), run, "b", GPT.label, "passed");
      await rebuilding;
      await live.waitFor((await store.readAll()).at(-1)!.position, 10_000);
      expect((await read.readModels.getRun("race", "r1"))?.completed).toBe(2);
    } finally {
      expect(await stopped(live, 300)).toBe("still following");
    }
  }, 60_000);

  it("applies the log's first events once when two writers start on a new read database together (no checkpoint row to lock yet)", async () => {
    const { store } = await liveLog("twice");
    const read = await readModelsOn(await database("verdict_refusals_twice"));
    const events = await store.readAll();
    const options = { name: "read-models", logFirstEvent: events[0].id };
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let signalApplied!: () => void;
    const firstApplied = new Promise<void>((resolve) => (signalApplied = resolve));
    // The first writer has applied the log and written its checkpoint, not yet committed.
    const first = transactional(read.orm.em, async (tx) => {
      const outcome = await applyInTransaction(sqlOf(tx), events, options);
      signalApplied();
      await held;
      return outcome;
    });
    await firstApplied;
    const second = applyBatch(read.orm.em, events, options);
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    expect((await first).applied).toBe(events.length);
    // It waited for the first to commit, then found the log applied: nothing twice.
    expect(await second).toMatchObject({ applied: 0, skipped: events.length });
    expect(await checkpointRows(read)).toEqual([{ name: "read-models", log_first_event: events[0].id }]);
  }, 60_000);

  it("follows on after a rebuild of its own log (the rebuild's one transaction), as before", async () => {
    const { store } = await liveLog("same");
    const read = await readModelsOn(await database("verdict_refusals_same"));
    const live = createProjector({ store, orm: read.orm, retryDelayMs: 50 });
    live.start();
    try {
      await live.waitFor((await store.readAll()).at(-1)!.position);
      await createProjector({ store, orm: read.orm }).rebuild();
      await beginRun(store, commandDeps("same"), "e1", "r2", [GPT]);
      await live.waitFor((await store.readAll()).at(-1)!.position);
      expect(await read.readModels.getRun("same", "r2")).not.toBeNull();
    } finally {
      await live.stop();
    }
  }, 60_000);
});
