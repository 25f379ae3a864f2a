// Scoring speed (issue 3): score, average and diagnose 100,000 prebuilt replays of a support and
// billing suite — a mix of passes, tool errors, missing tools, refusals, invented specifics and
// forbidden content — on one core. Target: at least 200,000 replays/second. The same-run
// baseline is JSON.stringify of the same replays (each through Replay#toJSON). The machine is
// shared, so the rate is judged on this process's CPU time (GC kept on the main thread, so that
// is one core's work); wall time is printed beside it.
//   npm run bench -- scoring
import { spawnSync } from "node:child_process";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Diagnosis } from "../domain/diagnosis/index.js";
import { Replay, type ReplayInit } from "../domain/replay/index.js";
import { Scenario } from "../domain/scenarios/scenario.js";
import { Scorer, type Criterion } from "../domain/scoring/index.js";
import { peakRssMb, printTable, ratio, type Timing } from "./harness.js";

// "On one core": V8's garbage collector normally helps from other threads, which process CPU time
// would count and a second core would absorb. Re-run this file with GC on the main thread.
if (!process.execArgv.includes("--single-threaded-gc")) {
  const args = [...process.execArgv, "--single-threaded-gc", fileURLToPath(import.meta.url)];
  process.exit(spawnSync(process.execPath, args, { stdio: "inherit" }).status ?? 1);
}

const COUNT = 100_000;
const RUNS = 5;
const WARMUP = 1;
const ROSTER = ["lookup_order", "refund_order", "track_shipment", "search_faq", "lookup_invoice"];

const criteria: Criterion[] = [
  { key: "response_present", type: "response_present" },
  { key: "response_length", type: "min_length", config: { chars: 60 } },
  { key: "latency", type: "max_latency_ms", config: { ms: 8_000 } },
  { key: "tokens", type: "token_budget", config: { output_tokens: 800 } },
  { key: "no_apology_loop", type: "not_contains", config: { pattern: "sorry for the inconvenience" } },
];

const scenarios = Array.from({ length: 20 }, (_, n) => {
  const order = 4_800 + n;
  if (n % 10 === 9) {
    // a policy question: no tool expected, so a stated count or id is an ungrounded answer
    return new Scenario({ key: `policy_${n}`, prompt: "How long do I have to return an item?", group: "policy", expectedPatterns: ["30 days"] });
  }
  return n % 2 === 0
    ? new Scenario({
        key: `orders_${n}`,
        prompt: `Where is my order ${order}, and can I still return it?`,
        group: "orders",
        expectedTools: ["lookup_order", "track_shipment"],
        expectedPatterns: [String(order), "/(ship|deliver)(ped|ed)/i"],
        forbiddenPatterns: ["I cannot help", "contact support"],
      })
    : new Scenario({
        key: `billing_${n}`,
        prompt: `Why was I charged twice on invoice INV-${order}?`,
        group: "billing",
        expectedTools: ["lookup_invoice"],
        expectedPatterns: ["refund", `INV-${order}`],
        forbiddenPatterns: ["guarantee"],
      });
});

const filler =
  "I checked the details on your account and everything else looks in order. Let me know if there is " +
  "anything else I can help with today, and have a great rest of your week.";

/** One replay per kind of outcome a real run produces, for scenario `n`. */
function replayFor(scenario: Scenario, i: number): ReplayInit {
  const id = /\d{4}/.exec(scenario.prompt)?.[0] ?? "4800";
  const billing = scenario.group === "billing";
  if (scenario.group === "policy") {
    return i % 8 < 5
      ? { answer: `You can return most items within 30 days of delivery. ${filler}`, durationMs: 900 }
      : { answer: `You have 2 open returns; returns close 30 days after delivery. ${filler}`, durationMs: 900 };
  }
  const tool = billing ? "lookup_invoice" : "lookup_order";
  const base = { durationMs: 1_200 + (i % 9_000), inputTokens: 2_000 + (i % 500), outputTokens: 200 + (i % 900) };
  switch (i % 8) {
    case 0:
    case 1:
    case 2: // passes
      return {
        ...base,
        answer: billing
          ? `Invoice INV-${id} was charged twice by mistake; I issued a refund of $49.00 for the duplicate. ${filler}`
          : `Order ${id} shipped on Monday and is due Thursday; returns are open for 30 days. ${filler}`,
        toolCalls: [{ name: tool, arguments: { id }, result: { status: "ok" } }],
      };
    case 3: // tool error
      return {
        ...base,
        answer: `I tried to look that up but the lookup failed. ${filler}`,
        toolCalls: [{ name: tool, arguments: { id }, error: true, detail: "502 Bad Gateway from orders-api" }],
      };
    case 4: // expected tool not called, invented specifics
      return { ...base, answer: `Your order #${id} shipped on 2026-05-02 and you have 2 open tickets. ${filler}` };
    case 5: // refusal
      return { ...base, answer: `I don't have access to order or billing systems, so I can't check that for you. ${filler}` };
    case 6: // forbidden content after the right tool
      return {
        ...base,
        answer: billing
          ? `I guarantee the refund for INV-${id} lands tomorrow. ${filler}`
          : `Order ${id} shipped, but for returns please contact support. ${filler}`,
        toolCalls: [{ name: tool, arguments: { id } }, { name: "track_shipment" }],
      };
    default: // wrong tool, missing content
      return { ...base, answer: `Our FAQ says most issues resolve within a week. ${filler}`, toolCalls: [{ name: "search_faq" }] };
  }
}

const inits = Array.from({ length: COUNT }, (_, i) => [scenarios[i % scenarios.length], replayFor(scenarios[i % scenarios.length], i)] as const);
const scorer = new Scorer({ criteria });
const judgeKeys = scorer.judgeKeys;
const faults: Record<string, number> = {};

type Workload = ReadonlyArray<readonly [Scenario, Replay]>;

/** Fresh Replay objects, so no timed run reads answers or tool lists another run cached. */
function freshReplays(): Workload {
  return inits.map(([scenario, init]) => [scenario, new Replay(init)] as const);
}

function scoreAll(set: Workload, tally: boolean): void {
  for (const [scenario, replay] of set) {
    const scores = scorer.score(scenario, replay);
    const score = Scorer.mean(scores);
    const diagnosis = Diagnosis.diagnose({ scenario, replay, scores, score, availableTools: ROSTER, judgeKeys });
    if (tally) {
      const fault = diagnosis?.fault ?? "passed";
      faults[fault] = (faults[fault] ?? 0) + 1;
    }
  }
}

interface Measured {
  wall: Timing;
  /** This process's user + system CPU time: steadier than wall time on a shared machine. */
  cpu: Timing;
}

/**
 * Like harness `time`, but each run gets its input from `prepare`, outside the timed span (a
 * fresh workload, so no run reads what another cached), and CPU time is measured beside wall time.
 */
function measure<T>(name: string, prepare: () => T, run: (input: T) => unknown): Measured {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i += 1) {
    const input = prepare();
    (globalThis as { gc?: () => void }).gc?.();
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    run(input);
    const elapsed = performance.now() - started;
    const used = process.cpuUsage(cpuStart);
    if (i < WARMUP) continue;
    wall.push(elapsed);
    cpu.push((used.user + used.system) / 1000);
  }
  const median = (samples: number[]) => samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
  return { wall: { name, medianMs: median(wall) }, cpu: { name, medianMs: median(cpu) } };
}

scoreAll(freshReplays().slice(0, 8_000), true); // tally the outcome mix once
const baselineSet = freshReplays();
const floor = measure("JSON.stringify(replays)", () => baselineSet, (set) => JSON.stringify(set.map(([, replay]) => replay)));
const ours = measure("score + mean + diagnose", freshReplays, (set) => scoreAll(set, false));

const rate = (timing: Timing) => Math.round(COUNT / (timing.medianMs / 1000));
printTable(
  [floor, ours].map((m) => ({
    step: m.wall.name,
    "wall ms": m.wall.medianMs.toFixed(1),
    "wall replays/s": rate(m.wall),
    "cpu ms": m.cpu.medianMs.toFixed(1),
    "cpu replays/s": rate(m.cpu),
    "ratio (cpu)": ratio(m.cpu, floor.cpu),
  })),
);
const perSecond = rate(ours.cpu);
console.log(`mix of 8,000: ${JSON.stringify(faults)}`);
console.log(`${COUNT.toLocaleString("en")} replays, ${scenarios.length} scenarios, ${criteria.length} criteria; peak RSS ${peakRssMb()} MB`);
console.log(`load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores while measuring`);
console.log(perSecond >= 200_000 ? "meets the 200,000 replays/s target (CPU time)" : "BELOW the 200,000 replays/s target (CPU time)");
