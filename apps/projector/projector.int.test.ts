// The projector on real PostgreSQL: events in the PostgreSQL event store, read models in their
// own database, progress across connections by LISTEN/NOTIFY, rebuild equality, and the `run`
// query with 3,000 results.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryEventStore, createPostgresEventStore } from "@verdict/infra";
import type { EventStore } from "@verdict/domain";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { createProjector } from "./projector.js";
import { readModelChecksum } from "./db/checksum.js";
import { PROJECTION_VERSION } from "./projection/projectionVersion.js";
import { ormDatabase } from "./db/sql.js";
import { openTestReadModels, type OrmReadModels } from "./testing/testReadModels.js";
import { createPostgresProgressBus } from "./progress/postgresProgressBus.js";
import type { RunProgress } from "./progress/progress.js";
import { beginRun, CLAUDE, commandDeps, completeRun, createEvaluation, GPT, recordPair, recordVerdict } from "./testing/runFixture.js";

let eventsDb: TestDatabase;
let readDb: TestDatabase;
let store: EventStore;
let read: OrmReadModels;

beforeAll(async () => {
  eventsDb = await createTestDatabase("verdict_projector_events");
  readDb = await createTestDatabase("verdict_projector_read");
  store = await createPostgresEventStore({ connectionString: eventsDb.url, pollIntervalMs: 200 });
  read = await openTestReadModels({ url: readDb.url });
});

afterAll(async () => {
  await read?.close();
  await store?.close();
  await eventsDb?.drop();
  await readDb?.drop();
});

describe("projector on PostgreSQL", () => {
  it("follows a run live, publishes progress over NOTIFY only after commit, and equals a rebuild", async () => {
    const publisher = createPostgresProgressBus({ url: readDb.url });
    const apiSide = createPostgresProgressBus({ url: readDb.url }); // another process's listener
    const seen: { progress: RunProgress; committed: number | undefined }[] = [];
    const rereads: Promise<void>[] = [];
    await apiSide.subscribe("r1", (progress) => {
      // Kept in arrival order: the rereads run concurrently and may resolve out of order.
      const arrival: (typeof seen)[number] = { progress, committed: undefined };
      seen.push(arrival);
      rereads.push(read.readModels.getRun("acme", "r1").then((run) => void (arrival.committed = run?.completed)));
    });
    const projector = createProjector({ store, orm: read.orm, bus: publisher });
    projector.start();
    try {
      const deps = commandDeps("acme");
      await createEvaluation(store, deps, "e1", ["a", "b"]);
      const run = await beginRun(store, deps, "e1", "r1");
      await recordPair(store, deps, run, "a", GPT.label, "passed");
      await recordPair(store, deps, run, "a", CLAUDE.label, "failed");
      await recordPair(store, deps, run, "b", GPT.label, "errored");
      await recordPair(store, deps, run, "b", CLAUDE.label, "passed");
      await recordVerdict(store, deps, "r1", CLAUDE.label);
      const pairs = [["a", GPT.label, true], ["a", CLAUDE.label, false], ["b", GPT.label, false], ["b", CLAUDE.label, true]] as const;
      const done = await completeRun(store, deps, "r1", pairs.map(([k, m, pass]) => ({ scenario_key: k, model_label: m, pass })));
      await projector.waitFor(done.position!);
      await waitUntil(() => seen.some((s) => s.progress.status === "COMPLETED"));
      await Promise.all(rereads);
    } finally {
      await projector.stop();
      await publisher.close();
      await apiSide.close();
    }
    for (const { progress, committed } of seen) expect(committed).toBeGreaterThanOrEqual(progress.completed);
    expect(seen.at(-1)!.progress).toMatchObject({ run_id: "r1", tenant: "acme", status: "COMPLETED", total: 4, completed: 4, passed: 2, failed: 1, errored: 1 });
    expect(await read.readModels.modelSummaries("acme", "r1")).toHaveLength(2);

    const live = await readModelChecksum(ormDatabase(read.orm));
    expect(live.results.rows).toBe(4);
    await createProjector({ store, orm: read.orm }).rebuild();
    expect(await readModelChecksum(ormDatabase(read.orm))).toEqual(live);
  });

  it("resumes from a PostgreSQL log position after a restart and ends where a rebuild ends", async () => {
    const deps = commandDeps("restart");
    await createEvaluation(store, deps, "re1", ["a", "b", "c"]);
    const run = await beginRun(store, deps, "re1", "re-run");
    await recordPair(store, deps, run, "a", GPT.label, "passed");
    const first = createProjector({ store, orm: read.orm, name: "restart" });
    first.start();
    await first.waitFor((await store.readAll()).at(-1)!.position);
    await first.stop();
    const checkpoint = await first.checkpoint();
    expect(checkpoint?.commit).toBeGreaterThan(0n);
    for (const key of ["b", "c"]) await recordPair(store, deps, run, key, CLAUDE.label, "failed");
    const second = createProjector({ store, orm: read.orm, name: "restart" });
    second.start();
    await second.waitFor((await store.readAll()).at(-1)!.position);
    await second.stop();
    expect(await read.readModels.getRun("restart", "re-run")).toMatchObject({ completed: 3, passed: 1, failed: 2, total: 6 });
    const resumed = await readModelChecksum(ormDatabase(read.orm));
    await createProjector({ store, orm: read.orm, name: "restart" }).rebuild();
    expect(await readModelChecksum(ormDatabase(read.orm))).toEqual(resumed);
  });

  it("two projectors starting at once on read models of another projection version rebuild them once", async () => {
    const deps = commandDeps("versions");
    await createEvaluation(store, deps, "ve1", ["a", "b"]);
    const run = await beginRun(store, deps, "ve1", "ve-run");
    await recordPair(store, deps, run, "a", GPT.label, "passed");
    await createProjector({ store, orm: read.orm, name: "versions" }).rebuild();
    const rebuilt = await readModelChecksum(ormDatabase(read.orm));
    const sql = ormDatabase(read.orm).sql();
    await sql.execute("UPDATE runs SET judge_calls = judge_calls + 1 WHERE id = 've-run'"); // what older code computed
    await sql.execute("UPDATE projector_checkpoints SET projection_version = ? WHERE name = 'versions'", [PROJECTION_VERSION - 1]);
    const told: unknown[] = [];
    const starting = () => createProjector({ store, orm: read.orm, name: "versions", onStaleProjection: (state) => told.push(state) }).catchUp();
    const counts = await Promise.all([starting(), starting()]);
    // The second waited on the first's lock, then found the read models current: it rebuilt nothing.
    expect(counts.sort((x, y) => x - y)).toEqual([0, (await store.readAll()).length]);
    expect(told).toHaveLength(2);
    expect(await readModelChecksum(ormDatabase(read.orm))).toEqual(rebuilt);
  });

  it("a projector killed between committing a run's completion and its NOTIFY announces it when it starts again", async () => {
    // The restarted projector resumed past the completion: the subscriber's last message stayed
    // RUNNING for ever while the run query said COMPLETED.
    const deps = commandDeps("notify");
    await createEvaluation(store, deps, "nt1", ["a"]);
    const run = await beginRun(store, deps, "nt1", "nt-run", [GPT]);
    await recordPair(store, deps, run, "a", GPT.label, "passed");
    const done = await completeRun(store, deps, "nt-run", [{ scenario_key: "a", model_label: GPT.label, pass: true }]);
    const killed = createProjector({ store, orm: read.orm, name: "notify" }); // commits, publishes nothing
    killed.start();
    await killed.waitFor(done.position!);
    await killed.stop();
    const publisher = createPostgresProgressBus({ url: readDb.url });
    const apiSide = createPostgresProgressBus({ url: readDb.url });
    const seen: RunProgress[] = [];
    await apiSide.subscribe("nt-run", (progress) => void seen.push(progress));
    const restarted = createProjector({ store, orm: read.orm, bus: publisher, name: "notify" });
    restarted.start();
    try {
      await waitUntil(() => seen.length > 0);
    } finally {
      await restarted.stop();
      await publisher.close();
      await apiSide.close();
    }
    expect(seen.at(-1)).toMatchObject({ run_id: "nt-run", tenant: "notify", status: "COMPLETED", completed: 1, total: 1 });
  });

  it("delivers a scored result's progress to another connection's subscriber promptly", async () => {
    const publisher = createPostgresProgressBus({ url: readDb.url });
    const apiSide = createPostgresProgressBus({ url: readDb.url });
    const arrivals = new Map<number, number>();
    await apiSide.subscribe("lat-run", (progress) => {
      if (!arrivals.has(progress.completed)) arrivals.set(progress.completed, performance.now());
    });
    const projector = createProjector({ store, orm: read.orm, bus: publisher, name: "latency" });
    const deps = commandDeps("latency");
    const keys = Array.from({ length: 30 }, (_, i) => `k${i}`);
    await createEvaluation(store, deps, "lat", keys);
    const run = await beginRun(store, deps, "lat", "lat-run", [GPT]);
    projector.start();
    const delays: number[] = [];
    try {
      for (const [i, key] of keys.entries()) {
        await recordPair(store, deps, run, key, GPT.label, "passed");
        const appended = performance.now();
        await waitUntil(() => arrivals.has(i + 1));
        delays.push(arrivals.get(i + 1)! - appended);
      }
    } finally {
      await projector.stop();
      await publisher.close();
      await apiSide.close();
    }
    delays.sort((a, b) => a - b);
    const p95 = delays[Math.ceil(0.95 * delays.length) - 1];
    console.log(`progress after the score's append: p50 ${delays[15].toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
    // Idle, p95 is ~10 ms; the 150 ms target is the bench's (npm run bench -- platform), on a
    // machine not also running the rest of the suite, where a loaded run saw 205-428 ms. A lost
    // notification fails the wait above; this bound catches delivery gone slow by 100x.
    expect(p95).toBeLessThan(1_000);
  });

  it("answers a finished run and its 3,000 results well under 30 ms, 20 clients at once", async () => {
    const memory = createMemoryEventStore();
    const deps = commandDeps("perf");
    const keys = Array.from({ length: 1000 }, (_, i) => `scenario_${String(i).padStart(4, "0")}`);
    const models = [GPT, CLAUDE, { label: "gemini-3-flash", provider: "google", model: "gemini-3-flash" }];
    await createEvaluation(memory, deps, "big", keys);
    const run = await beginRun(memory, deps, "big", "big-run", models);
    const scored: { scenario_key: string; model_label: string; pass: boolean }[] = [];
    for (const [i, key] of keys.entries()) {
      for (const [j, model] of models.entries()) {
        const outcome = (i + j) % 5 === 0 ? "failed" : "passed";
        await recordPair(memory, deps, run, key, model.label, outcome);
        scored.push({ scenario_key: key, model_label: model.label, pass: outcome === "passed" });
      }
    }
    await completeRun(memory, deps, "big-run", scored);
    const projector = createProjector({ store: memory, orm: read.orm, name: "perf" });
    const started = Date.now();
    const applied = await projector.catchUp();
    const projectMs = Date.now() - started;
    expect(applied).toBe(1 + 2 + 1 + 2 + 6000 + 1); // the name reservation first; the run's meter (UsageMetered) before it
    const query = async () => {
      const t0 = performance.now();
      const [runRow, results, summaries] = await Promise.all([
        read.readModels.getRun("perf", "big-run"), read.readModels.listResults("perf", "big-run"), read.readModels.modelSummaries("perf", "big-run"),
      ]);
      expect(runRow).toMatchObject({ status: "COMPLETED", completed: 3000, failed: 600 });
      expect(results).toHaveLength(3000);
      expect(summaries).toHaveLength(3);
      return performance.now() - t0;
    };
    const cold = await query();
    const sequential: number[] = [];
    for (let i = 0; i < 200; i++) sequential.push(await query());
    sequential.sort((a, b) => a - b);
    const sequentialP95 = sequential[Math.ceil(0.95 * sequential.length) - 1];
    const timings: number[] = [];
    for (let round = 0; round < 5; round++) timings.push(...(await Promise.all(Array.from({ length: 20 }, query))));
    timings.sort((a, b) => a - b);
    const p95 = timings[Math.ceil(0.95 * timings.length) - 1];
    console.log(
      `projected 6,005 events in ${projectMs} ms; run + 3,000 results: first read ${cold.toFixed(1)} ms, ` +
        `then one client p50 ${sequential[100].toFixed(1)} ms p95 ${sequentialP95.toFixed(1)} ms, ` +
        `20 concurrent clients p50 ${timings[50].toFixed(1)} ms p95 ${p95.toFixed(1)} ms`,
    );
    expect(sequential[100]).toBeLessThan(5);
    expect(sequentialP95).toBeLessThan(30);
    // 20 clients share one event loop: each waits for the others' turns. The bound is loose
    // because this machine's 2 cores are shared with other suites (load average above 10 seen).
    expect(p95).toBeLessThan(150);
    expect((await read.readModels.listResults("perf", "big-run", { status: "failed", model: GPT.label })).length).toBe(200);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
