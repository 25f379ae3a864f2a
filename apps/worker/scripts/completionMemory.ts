// What finishing a big run costs the worker in memory: a run of N scenarios x 5 models whose
// pairs are already recorded and scored (each ~60 KB of answer and tool output, as measured in
// session 29), then one completion job, timed, with the process's resident memory sampled every
// 5 ms from a worker thread (the completion's synchronous stretches never let a timer in the main
// thread run). Prints resident memory before the job and at its peak. The events are written to
// PGlite (default, in memory), PostgreSQL (DATABASE_URL) or the memory store (`--memory`; its
// reads hand back the stored strings, so it hides what a real store's reads cost). `--scan` only
// reads the pair events as completion does and keeps none (what the store's reads cost alone).
// Peak resident memory follows V8's collection policy as much as what is kept: run it under a
// heap cap (--max-old-space-size) to see what a completion needs. Usage:
//   node --expose-gc --import tsx apps/worker/scripts/completionMemory.ts [--scenarios 1000] [--kb 60] [--scan]
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import { createMemoryEventStore, createPgliteEventStore, createPostgresEventStore } from "@verdict/infra/eventstore";
import { resultStream, runStream, toEventsToAppend, type EventInput, type EventStore } from "@verdict/domain";
import { handleCompletionJob } from "../completion.js";
import { RunContexts } from "../runContext.js";
import { systemClock, uuidIds } from "../startWorker.js";
import { silentLog } from "../workerLog.js";

const { values } = parseArgs({ options: { scenarios: { type: "string", default: "1000" }, kb: { type: "string", default: "60" }, memory: { type: "boolean", default: false }, scan: { type: "boolean", default: false } } });
const count = Number(values.scenarios);
const bytes = Number(values.kb) * 1024;
const models = ["m-a", "m-b", "m-c", "m-d", "m-e"].map((label) => ({ label, provider: "openai", model: "gpt-5-mini" }));
const MB = (n: number) => `${Math.round(n / 1e6)} MB`;

async function openStore(): Promise<{ store: EventStore; kind: string }> {
  if (process.env.DATABASE_URL) return { store: await createPostgresEventStore({ connectionString: process.env.DATABASE_URL }), kind: "postgres" };
  if (values.memory) return { store: createMemoryEventStore(), kind: "memory" };
  return { store: await createPgliteEventStore({ pollIntervalMs: 50 }), kind: "pglite (in memory)" };
}

/**
 * `size` characters of made-up words, different per pair (a flat string, as a store's read
 * gives). Random letters compress about as prose does (PostgreSQL stores them ~1.7x smaller):
 * repeated words would compress ~20x and let the SQL stores' page budget, which counts stored
 * bytes, hand out pages many times its size.
 */
function text(seed: number, size: number): string {
  let state = (seed * 2654435761) >>> 0 || 1;
  const next = () => (state = (state * 1103515245 + 12345) >>> 0);
  const bytes = Buffer.allocUnsafe(size);
  let gap = 2 + (next() % 8);
  for (let i = 0; i < size; i++) {
    if (gap-- === 0) {
      bytes[i] = 32;
      gap = 2 + (next() % 8);
    } else bytes[i] = 97 + ((next() >>> 8) % 26);
  }
  return bytes.toString("latin1");
}

function pairEvents(runId: string, n: number, key: string, label: string): EventInput[] {
  const failed = n % 3 === 0;
  const pair = { run_id: runId, n, scenario_key: key, model_label: label };
  const replay = {
    answer: text(n, Math.round(bytes * 0.6)),
    tool_calls: [
      { name: "lookup_order", arguments: { order_id: String(n) }, result: text(n + 1, Math.round(bytes * 0.3)), duration_ms: 40 },
      { name: "track_parcel", arguments: { id: n }, error: failed ? "timeout" : undefined, detail: text(n + 2, Math.round(bytes * 0.1)), duration_ms: 900 },
    ],
    duration_ms: 1000 + (n % 97) * 10,
    input_tokens: 1200,
    output_tokens: 300 + (n % 50),
    cost: 0.0012,
    metadata: { cost_source: "estimated", cost_rate: { input: 0.25, output: 2, source: "bench" }, trace_id: `t${n}` },
  };
  const usage = { input_tokens: 400, output_tokens: 10, cost: 0.0001, model: "judge-1", source: "reported" };
  return [
    { type: "ReplayRecorded", data: { ...pair, replay } },
    {
      type: "ResultScored",
      data: {
        ...pair,
        status: failed ? "failed" : "passed",
        score: failed ? 0.4 : 0.9,
        scores: { length: 1, task_completion: failed ? 0.2 : 0.9 },
        pass: !failed,
        fault: failed ? "tool_error" : null,
        recommendation: failed ? "Retry the carrier call." : null,
        diagnosis: failed ? { fault: "tool_error", summary: "track_parcel failed", recommendation: "Retry the carrier call.", evidence: { failed_tools: ["track_parcel"] } } : null,
        judge_exchanges: [{ kind: "score", prompt_digest: `d${n}`, raw_answer: '{"score": 0.9}', parsed: { score: 0.9 }, usage, trace_ids: [], error: null }],
      },
    },
  ] as EventInput[];
}

/** The process's peak resident memory, sampled from another thread while `work` runs. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ value: T; peak: number }> {
  const shared = new BigInt64Array(new SharedArrayBuffer(16));
  const sampler = new Worker(
    `const { workerData } = require("node:worker_threads"); const a = workerData;
     const tick = () => { const r = BigInt(process.memoryUsage.rss()); if (r > a[0]) a[0] = r; if (a[1] === 0n) setTimeout(tick, 5); };
     tick();`,
    { eval: true, workerData: shared },
  );
  try {
    const value = await work();
    return { value, peak: Number(shared[0]) };
  } finally {
    shared[1] = 1n;
    await sampler.terminate();
  }
}

async function main(): Promise<void> {
  const { store, kind } = await openStore();
  const runId = `mem${Date.now()}`;
  const scenarios = Array.from({ length: count }, (_, i) => ({ key: `s${i}`, prompt: `Where is order ${i}?`, expected_tools: ["lookup_order"], position: i }));
  const context = { tenant: "bench", actor: "bench" };
  const deps = { clock: systemClock, ids: uuidIds };
  const started: EventInput = { type: "RunStarted", data: {
    run_id: runId, evaluation_id: "bench", tenant: "bench", number: 1, external: false,
    selection: { keys: null, group: null, scenario_keys: scenarios.map((s) => s.key), model_labels: models.map((m) => m.label) },
    scenarios, models, criteria: [{ key: "length", type: "min_length", config: { chars: 20 } }],
    judge: { kind: "rules", model: null }, judge_label: null, threshold: 0.7, release: null, metadata: {}, tools: [{ name: "lookup_order", description: "Finds an order" }], catalog: null, agent: null,
  } } as EventInput;
  await store.append(runStream(runId), toEventsToAppend([started], context, deps), { expectedVersion: "noStream" });
  const t0 = performance.now();
  for (let s = 0; s < count; s++) {
    await Promise.all(models.map((model, m) => {
      const n = s * models.length + m;
      return store.append(resultStream(runId, n), toEventsToAppend(pairEvents(runId, n, scenarios[s].key, model.label), context, deps), { expectedVersion: "noStream" });
    }));
  }
  console.log(`${kind}: ${count * models.length} pairs of ~${values.kb} KB written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  const runs = new RunContexts(store, { backend: null });
  const t1 = performance.now();
  const scan = async () => {
    const run = (await runs.get(runId))!;
    const query = { runId, after: run.startedEvent.position, pairs: run.state.pairs.length, eventTypes: ["ReplayRecorded", "ResultScored"], pageSize: 100 };
    let read = 0;
    // Imported here, so the script also runs against a build without it (a before/after comparison).
    const { forEachPairEvent } = await import("../pairEvents.js");
    await forEachPairEvent(store, query, () => void (read += 1));
    return `scanned ${read} events`;
  };
  const { value: outcome, peak } = await peakRss(() =>
    values.scan ? scan() : handleCompletionJob({ store, runtime: null, replayTimeoutMs: 5_000, clock: systemClock, ids: uuidIds, actor: "worker:bench", runs, log: silentLog }, { run_id: runId, tenant: "bench" }),
  );
  const seconds = (performance.now() - t1) / 1000;
  console.log(`${values.scan ? "scan" : "completion"}: ${outcome} in ${seconds.toFixed(1)} s; resident memory ${MB(before)} before, peak ${MB(peak)} (+${MB(peak - before)}); heap ${MB(heapBefore)} in use before`);
  await store.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
