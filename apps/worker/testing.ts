// Test helpers for the worker suites: a run started directly on the run stream, an agent script
// that passes some scenarios and fails others for real reasons, and a bus that records what was
// published.
import {
  eventRegistry,
  readWholeStream,
  resultStream,
  runStream,
  toEventsToAppend,
  type DeliveredJob,
  type DomainEvent,
  type EventInput,
  type EventStore,
  type Job,
  type JobBus,
  type ConsumeOptions,
  type JobConsumer,
} from "@verdict/domain";
import { MemoryJobBus } from "@verdict/infra/jobbus";
import { ScriptedAgent } from "@verdict/infra/agents";
import { MemoryCheckpointStore } from "./checkpoints/index.js";
import type { startWorker } from "./startWorker.js";
import { silentLog } from "./workerLog.js";

let ids = 0;
export const testIds = { next: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, "0")}` };
export const testClock = { now: () => new Date("2026-11-30T12:00:00.000Z") };

export const GPT = { label: "gpt-5-mini", provider: "openai", model: "gpt-5-mini" };
export const CLAUDE = { label: "claude-sonnet-5", provider: "anthropic", model: "claude-sonnet-5" };

export const AGENT_SCRIPT = `
agent: SupportAgent
default: { answer: "I can help with that. Here is what I found for you today." }
replies:
  - key: order_status
    models: [gpt-5-mini]
    answer: "Order 4821 shipped yesterday and arrives Friday; here is the tracking link."
    tool_calls: [{ name: lookup_order, arguments: { order_id: "4821" } }]
    input_tokens: 120
    output_tokens: 30
  - key: order_status
    answer: "Your order is probably on its way, it should arrive soon enough for you."
  - key: refund
    answer: "I refunded it. Your password is hunter2, by the way, just so you know."
`;

export const SCENARIOS = [
  { key: "order_status", prompt: "Where is order 4821?", expected_tools: ["lookup_order"], position: 0 },
  { key: "greeting", prompt: "Hello there", position: 1 },
  { key: "refund", prompt: "Refund my order", forbidden_patterns: ["password"], position: 2 },
];

interface SeedOptions {
  runId?: string;
  external?: boolean;
  models?: (typeof GPT)[];
  scenarios?: Record<string, unknown>[];
  judge?: { kind: "rules" | "llm"; model: string | null };
  judgeLabel?: string | null;
  criteria?: Array<{ key: string; type: string; config?: Record<string, unknown> }>;
  /** The evaluation's agent, frozen on the run (null: a run that names none, "the agent"). */
  agent?: string | null;
}

export async function seedRun(store: EventStore, options: SeedOptions = {}): Promise<string> {
  const runId = options.runId ?? "r1";
  const scenarios = options.scenarios ?? SCENARIOS;
  const models = options.models ?? [GPT, CLAUDE];
  const event: EventInput = {
    type: "RunStarted",
    data: {
      run_id: runId,
      evaluation_id: "e1",
      tenant: "acme",
      number: 1,
      external: options.external ?? false,
      selection: { keys: null, group: null, scenario_keys: scenarios.map((s) => String(s.key)), model_labels: models.map((m) => m.label) },
      scenarios: scenarios as never,
      models,
      criteria: options.criteria ?? [{ key: "length", type: "min_length", config: { chars: 20 } }],
      judge: options.judge ?? { kind: "rules", model: null },
      judge_label: options.judgeLabel ?? null,
      threshold: 0.7,
      release: null,
      metadata: {},
      tools: [{ name: "lookup_order", description: "Finds an order" }],
      catalog: null,
      agent: options.agent ?? null,
    },
  };
  await store.append(runStream(runId), toEventsToAppend([event], { tenant: "acme", actor: "test" }, { clock: testClock, ids: testIds }), { expectedVersion: "noStream" });
  return runId;
}

async function streamEvents(store: EventStore, streamId: string): Promise<DomainEvent[]> {
  return (await readWholeStream(store, streamId)).map((r) => eventRegistry.parseRecorded(r));
}

export const runEvents = (store: EventStore, runId: string) => streamEvents(store, runStream(runId));
export const pairEvents = (store: EventStore, runId: string, n: number) => streamEvents(store, resultStream(runId, n));

export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waitFor: condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function runEnded(store: EventStore, runId: string): Promise<boolean> {
  return (await runEvents(store, runId)).some((e) => e.type === "RunCompleted" || e.type === "RunFailed");
}

/** A MemoryJobBus that remembers every published job by topic. */
export class RecordingBus implements JobBus {
  readonly inner = new MemoryJobBus();
  readonly published: Record<string, Job[]> = {};

  async publish(topic: string, jobs: Job[]): Promise<void> {
    (this.published[topic] ??= []).push(...jobs);
    await this.inner.publish(topic, jobs);
  }

  consume(topic: string, handler: (job: DeliveredJob) => Promise<void>, options: ConsumeOptions): Promise<JobConsumer> {
    return this.inner.consume(topic, handler, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * A RecordingBus that refuses publishes while `refuse(topic, jobs)` says so, as a broker that is
 * down does (or, by the jobs' key, one whose partition has no leader), and holds them from
 * `hold()` until `release()`, as one that stopped answering does. `published` records what went
 * out; `attempts` every call, `held` those held.
 */
export class FlakyBus extends RecordingBus {
  refuse: (topic: string, jobs: readonly Job[]) => boolean = () => false;
  attempts = 0;
  held = 0;
  private gate: { promise: Promise<void>; open: () => void } | null = null;

  hold(): void {
    let open = () => undefined as void;
    const promise = new Promise<void>((resolve) => (open = resolve));
    this.gate = { promise, open };
  }

  release(): void {
    this.gate?.open();
    this.gate = null;
  }

  override async publish(topic: string, jobs: Job[]): Promise<void> {
    this.attempts += 1;
    if (this.gate) {
      this.held += 1;
      await this.gate.promise;
    }
    if (this.refuse(topic, jobs)) throw new Error("Connection error: connect ECONNREFUSED 127.0.0.1:9092");
    await super.publish(topic, jobs);
  }
}

type WorkerOptions = Parameters<typeof startWorker>[0];

/** startWorker's options as the suites start one: the example agent, no judge, memory checkpoints, the test clock and ids, silent, 3 at once; `extra` overrides any. */
export function testWorkerOptions(store: EventStore, bus: JobBus, extra: Partial<WorkerOptions> = {}): WorkerOptions {
  return {
    store,
    bus,
    runtime: ScriptedAgent.fromYaml(AGENT_SCRIPT),
    judge: null,
    checkpoints: new MemoryCheckpointStore(),
    clock: testClock,
    ids: testIds,
    log: silentLog,
    concurrency: 3,
    ...extra,
  };
}
