// Run by completionMemory.test.ts in a process with a small heap (--max-old-space-size): one
// completion job on a run whose recorded answers weigh far more than that heap. The answers are
// made as the store reads each ReplayRecorded (a fresh string each time, as a database's read
// gives), so only what the completion keeps stays in memory; a page holds a few of them, as a
// real store's page budget cuts pages of large events. Prints the job's outcome and the heap's
// peak as sampled at each page read, and exits 0; a completion that keeps every answer runs out
// of heap and dies.
import { getHeapStatistics } from "node:v8";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { resultStream, toEventsToAppend, type EventInput, type EventStore, type RecordedEvent } from "@verdict/domain";
import { handleCompletionJob } from "./completion.js";
import { RunContexts } from "./runContext.js";
import { silentLog } from "./workerLog.js";
import { CLAUDE, GPT, seedRun, testClock, testIds } from "./testing.js";

const SCENARIOS = Number(process.env.HEAP_SCENARIOS ?? 50);
const ANSWER_BYTES = Number(process.env.HEAP_ANSWER_BYTES ?? 1_000_000);
const MODELS = [GPT, CLAUDE, { label: "qwen3", provider: "ollama", model: "qwen3:8b" }];
const PAGE = 3;

/** A flat, unshared string of `size` characters (a database read gives one per event). */
const fresh = (size: number, n: number) => Buffer.alloc(size, 97 + (n % 26)).toString("latin1");

function inflate(event: RecordedEvent): RecordedEvent {
  if (event.type !== "ReplayRecorded") return event;
  const data = event.data as { n: number; replay: Record<string, unknown> };
  const call = { name: "lookup_order", arguments: { id: data.n }, result: fresh(ANSWER_BYTES / 2, data.n + 1) };
  return { ...event, data: { ...data, replay: { ...data.replay, answer: fresh(ANSWER_BYTES, data.n), tool_calls: [call] } } };
}

let peak = 0;
const sample = () => void (peak = Math.max(peak, getHeapStatistics().used_heap_size));

/** The memory store, its pair events read back with their large answers, a few a page. */
function inflating(inner: EventStore): EventStore {
  return new Proxy(inner, {
    get(target, key, receiver) {
      if (key === "readAll") {
        return async (options: Parameters<EventStore["readAll"]>[0] = {}) => {
          sample();
          return (await target.readAll({ ...options, limit: Math.min(options.limit ?? PAGE, PAGE) })).map(inflate);
        };
      }
      if (key === "readStream") {
        return async (...args: Parameters<EventStore["readStream"]>) => Object.assign((await target.readStream(...args)).map(inflate), { cut: false });
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function main(): Promise<void> {
  const memory = createMemoryEventStore();
  const scenarios = Array.from({ length: SCENARIOS }, (_, i) => ({ key: `s${i}`, prompt: `Where is order ${i}?`, position: i }));
  await seedRun(memory, { scenarios, models: MODELS });
  for (let n = 0; n < SCENARIOS * MODELS.length; n++) {
    const pair = { run_id: "r1", n, scenario_key: `s${Math.floor(n / MODELS.length)}`, model_label: MODELS[n % MODELS.length].label };
    const passed = n % 4 !== 0;
    const events = [
      { type: "ReplayRecorded", data: { ...pair, replay: { answer: "short", tool_calls: [], duration_ms: 900 + n, input_tokens: 100, output_tokens: 20, cost: 0.001, metadata: {} } } },
      { type: "ResultScored", data: { ...pair, status: passed ? "passed" : "failed", score: passed ? 1 : 0.2, scores: { length: passed ? 1 : 0.2 }, pass: passed, fault: null, recommendation: null, diagnosis: null, judge_exchanges: [] } },
    ] as EventInput[];
    await memory.append(resultStream("r1", n), toEventsToAppend(events, { tenant: "acme", actor: "test" }, { clock: testClock, ids: testIds }), { expectedVersion: "noStream" });
  }
  const store = inflating(memory);
  const outcome = await handleCompletionJob(
    { store, runtime: null, replayTimeoutMs: 5_000, clock: testClock, ids: testIds, actor: "worker:test", runs: new RunContexts(store, { backend: null }), log: silentLog },
    { run_id: "r1", tenant: "acme" },
  );
  sample();
  console.log(JSON.stringify({ outcome, pairs: SCENARIOS * MODELS.length, answerBytes: ANSWER_BYTES, peakHeapMB: Math.round(peak / 1e6) }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
