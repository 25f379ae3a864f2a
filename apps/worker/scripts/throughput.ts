// How fast the worker turns a run into results, in one process: N scenarios x 3 models with the
// scripted agent at zero latency and three rule checks per answer (contains, not_contains,
// min_length), from RunStarted to RunCompleted. `--pglite` uses the embedded event store
// (otherwise memory); DATABASE_URL uses PostgreSQL. `--embedded` is the embedded platform minus
// the API: PGlite event store and read database in a temp dir (as `verdict start` opens them)
// and the projector, timed until the projector has applied RunCompleted too. Prints the
// process's CPU time as well (steadier than wall time on a shared machine). Usage:
//   tsx apps/worker/scripts/throughput.ts [--scenarios 1000] [--pglite | --embedded] [--concurrency 4]
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createMemoryEventStore, createPgliteEventStore, createPostgresEventStore } from "@verdict/infra/eventstore";
import { openPgliteDataDir } from "@verdict/infra/db";
import { MemoryJobBus } from "@verdict/infra/jobbus";
import { ScriptedAgent } from "@verdict/infra/agents";
import { runStream, toEventsToAppend, type EventStore, type LogPosition } from "@verdict/domain";
import { MemoryCheckpointStore } from "../checkpoints/index.js";
import { startWorker, systemClock, uuidIds } from "../startWorker.js";
import { silentLog } from "../workerLog.js";

const { values } = parseArgs({ options: { scenarios: { type: "string", default: "1000" }, pglite: { type: "boolean", default: false }, embedded: { type: "boolean", default: false }, concurrency: { type: "string", default: "4" } } });
const count = Number(values.scenarios);
const models = ["echo-a", "echo-b", "echo-c"].map((label) => ({ label, provider: "openai", model: label }));

interface Opened {
  store: EventStore;
  kind: string;
  /** Resolves once the read side has applied up to `position` (embedded only). */
  projected?: (position: LogPosition) => Promise<void>;
  close?: () => Promise<void>;
}

async function openEmbedded(): Promise<Opened> {
  await import("reflect-metadata");
  const { createProjector, openReadModels, createMemoryProgressBus } = await import("@verdict/projector");
  const home = await mkdtemp(join(tmpdir(), "verdict-throughput-"));
  // One PGlite for the log and the read models, as `verdict start` opens an embedded home.
  const db = await openPgliteDataDir(join(home, "events"));
  const store = await createPgliteEventStore({ db, soleWriter: true });
  const read = await openReadModels({ pglite: db });
  const batches = { count: 0, events: 0 };
  const projector = createProjector({ store, orm: read.orm, database: read.sql, bus: createMemoryProgressBus(), onBatch: (b) => ((batches.count += 1), (batches.events += b.applied)) });
  projector.start();
  return {
    store,
    kind: "embedded (one PGlite for events and read models + projector, fresh dir)",
    projected: (position) => projector.waitFor(position, 120_000),
    close: async () => {
      console.log(`projector: ${batches.events} events in ${batches.count} batches`);
      await projector.stop();
      await read.close();
      await db.close(); // after the store (main closes it first): it is the store's and the read models' database
      await rm(home, { recursive: true, force: true });
    },
  };
}

async function openStore(): Promise<Opened> {
  if (values.embedded) return openEmbedded();
  if (process.env.DATABASE_URL) return { store: await createPostgresEventStore({ connectionString: process.env.DATABASE_URL }), kind: "postgres" };
  if (values.pglite) return { store: await createPgliteEventStore({ pollIntervalMs: 50 }), kind: "pglite (fresh, in memory)" };
  return { store: createMemoryEventStore(), kind: "memory" };
}

async function main(): Promise<void> {
  const { store, kind, projected, close } = await openStore();
  const agent = ScriptedAgent.fromYaml(`default: { answer: "Your order 4821 ships on Friday; here is the tracking link for it." }`);
  const worker = await startWorker({ store, bus: new MemoryJobBus(), runtime: agent, judge: null, checkpoints: new MemoryCheckpointStore(), concurrency: Number(values.concurrency), log: silentLog });
  const runId = `bench${Date.now()}`;
  const scenarios = Array.from({ length: count }, (_, i) => ({ key: `s${i}`, prompt: `Where is order ${i}?`, position: i }));
  const started = { type: "RunStarted" as const, data: {
    run_id: runId, evaluation_id: "bench", tenant: "bench", number: 1, external: false,
    selection: { keys: null, group: null, scenario_keys: scenarios.map((s) => s.key), model_labels: models.map((m) => m.label) },
    scenarios, models,
    criteria: [
      { key: "mentions_order", type: "contains", config: { pattern: "order" } },
      { key: "no_apology", type: "not_contains", config: { pattern: "sorry" } },
      { key: "length", type: "min_length", config: { chars: 20 } },
    ],
    judge: { kind: "rules" as const, model: null }, judge_label: null, threshold: 0.7, release: null, metadata: {}, tools: [], catalog: null, agent: null,
  } };
  const rss = { peak: process.memoryUsage().rss };
  const sampler = setInterval(() => (rss.peak = Math.max(rss.peak, process.memoryUsage().rss)), 50);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await store.append(runStream(runId), toEventsToAppend([started], { tenant: "bench", actor: "bench" }, { clock: systemClock, ids: uuidIds }), { expectedVersion: "noStream" });
  let requestedAt: number | null = null;
  for (;;) {
    const [last] = await store.readStream(runStream(runId), { direction: "backwards", limit: 1 });
    if (last?.type === "RunCompletionRequested") requestedAt ??= performance.now();
    if (last?.type === "RunCompleted" || last?.type === "RunFailed") {
      await projected?.(last.position);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  if (requestedAt !== null) console.log(`last pair scored after ${((requestedAt - t0) / 1000).toFixed(2)} s; completion took ${((performance.now() - requestedAt) / 1000).toFixed(2)} s`);
  clearInterval(sampler);
  const results = count * models.length;
  console.log(`${kind}: ${results} results in ${seconds.toFixed(2)} s = ${Math.round(results / seconds)} results/s, peak RSS ${Math.round(rss.peak / 1e6)} MB`);
  console.log(`CPU ${cpuSeconds.toFixed(2)} s = ${Math.round(results / cpuSeconds)} results per CPU-second; load average ${loadavg().map((l) => l.toFixed(2)).join(", ")}`);
  await worker.stop();
  await store.close();
  await close?.();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
