// A run's completion reads each pair as the verdict, the comparison and the summary read it
// (collectPairSummaries): what it records must be what the whole pairs give, byte for byte, on a
// run with long answers and tool output, failing tools, missing tools, run errors, estimated
// costs and a judge that picks the verdict.
import { describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { Judge, resultStream, toEventsToAppend, type EventInput, type EventStore } from "@verdict/domain";
import { collectPairs, collectPairSummaries } from "./collectPairs.js";
import { completionCommands, handleCompletionJob, type CompletionDeps } from "./completion.js";
import { RunContexts } from "./runContext.js";
import { reportFromRun } from "./runReport.js";
import { silentLog } from "./workerLog.js";
import { CLAUDE, GPT, pairEvents, runEvents, seedRun, testClock, testIds } from "./testing.js";

const MODELS = [GPT, CLAUDE, { label: "qwen3", provider: "ollama", model: "qwen3:8b" }];
const SCENARIOS = Array.from({ length: 8 }, (_, i) => ({ key: `s${i}`, prompt: `Where is order ${i}?`, expected_tools: i % 2 ? ["lookup_order", "refund_order"] : [], position: i }));
const ANSWER = 200_000;
const big = (seed: string, size: number) => `${seed} `.repeat(Math.ceil(size / (seed.length + 1))).slice(0, size);

function deps(store: EventStore): CompletionDeps {
  return { store, runtime: null, replayTimeoutMs: 5_000, clock: testClock, ids: testIds, actor: "worker:test", runs: new RunContexts(store, { backend: null }), log: silentLog };
}

function pair(n: number): EventInput[] {
  const identity = { run_id: "r1", n, scenario_key: SCENARIOS[Math.floor(n / MODELS.length)].key, model_label: MODELS[n % MODELS.length].label };
  const kind = n % 6;
  const errored = kind === 5;
  const replay = {
    answer: errored ? null : big(`answer ${n}`, ANSWER),
    tool_calls: [
      { name: "lookup_order", arguments: { order_id: big(String(n), 2_000) }, result: big("row", 50_000), duration_ms: 40 },
      { name: "track_parcel", error: kind === 1 ? "timeout" : null, detail: kind === 1 ? big(`carrier ${n} answered 503`, 400) : big("ok", 3_000) },
      ...(kind === 2 ? [{ name: "notify", error: "", detail: " ".repeat(300) }, { name: "email", error: "denied", detail: `${"é".repeat(58)}😀😀😀` }] : []),
    ],
    duration_ms: 700 + n * 31,
    input_tokens: 1_000 + n,
    output_tokens: n % 7 === 3 ? null : 250 + n,
    ...(errored ? { error: `ECONNREFUSED ${big("at socket", 5_000)}` } : {}),
    cost: n % 4 === 2 ? null : 0.0003 * (n + 1),
    metadata: {
      ...(n % 3 === 0 ? { cost_source: "estimated", cost_rate: { input: 0.25, output: 2, source: "rates.yaml" } } : {}),
      trace_id: `t${n}`,
      raw: big("chunk", 20_000),
    },
  };
  const diagnosis = [
    null,
    { fault: "tool_error", summary: "track_parcel failed.", recommendation: "Retry the carrier.", evidence: { failed: ["track_parcel"], output: big("503", 4_000) } },
    { fault: "tool_error", summary: "notify failed.", recommendation: "Check the mailer.", evidence: {} },
    { fault: "expected_tool_not_called", summary: "Expected refund_order.", recommendation: "Enable refund_order.", evidence: { unavailable: ["refund_order", "wire_money"], excerpt: big("a", 3_000) } },
    { fault: "missing_capability", summary: "No refund tool.", recommendation: "Add one.", evidence: { tools_available: ["lookup_order", "refund_order"] }, judge: { suggested_tool: { name: "issue_refund", description: "Refunds" }, instruction_change: "Always confirm the order id." } },
    { fault: "run_error", summary: "The agent was unreachable.", recommendation: "Check the host.", evidence: { error: big("stack", 2_000) } },
  ][kind];
  const usage = { input_tokens: 400 + n, output_tokens: 12, cost: 0.00011, model: "judge-1", source: n % 5 === 0 ? "metered" : "reported" };
  const exchange = (kind: "score" | "recommend") => ({ kind, prompt_digest: `d${n}${kind}`, raw_answer: big('{"score": 0.4}', 3_000), parsed: { score: 0.4 }, usage, trace_ids: [`tr${n}`], error: null });
  const status = errored ? "errored" : diagnosis ? "failed" : "passed";
  return [
    { type: "ReplayRecorded", data: { ...identity, replay } },
    {
      type: "ResultScored",
      data: {
        ...identity, status, score: errored ? null : diagnosis ? 0.3 : 0.9, scores: { length: errored ? null : 1, task_completion: diagnosis ? 0.2 : 0.9 },
        pass: status === "passed", fault: diagnosis?.fault ?? null, recommendation: diagnosis?.recommendation ?? null, diagnosis,
        judge_exchanges: errored ? [] : diagnosis ? [exchange("score"), exchange("recommend")] : [exchange("score")],
      },
    },
  ] as EventInput[];
}

async function seeded(): Promise<EventStore> {
  const store = createMemoryEventStore();
  await seedRun(store, { scenarios: SCENARIOS, models: MODELS, judge: { kind: "llm", model: "judge-1" }, judgeLabel: "judge-1", criteria: [{ key: "length", type: "min_length", config: { chars: 20 } }] });
  for (let n = 0; n < SCENARIOS.length * MODELS.length; n++) {
    await store.append(resultStream("r1", n), toEventsToAppend(pair(n), { tenant: "acme", actor: "test" }, { clock: testClock, ids: testIds }), { expectedVersion: "noStream" });
  }
  return store;
}

/** A judge that picks the model the ranking puts last, without a rationale, and says what it used. */
function verdictJudge(asked: string[]): Judge {
  return new Judge({
    label: "judge-1",
    complete: ({ prompt }) => {
      asked.push(prompt);
      return { text: `{"winner": "qwen3"}`, usage: { input_tokens: 900, output_tokens: 30, cost: 0.002, model: "judge-1" } };
    },
  });
}

describe("completion from the pairs' summaries", () => {
  it("records the verdict, the comparison and the summary the whole pairs give, byte for byte", async () => {
    const store = await seeded();
    const d = { ...deps(store), comparison: { seed: 7, resamples: 500 } };
    const run = (await d.runs.get("r1"))!;
    const asked: string[] = [];
    const commands = async (pairs: Awaited<ReturnType<typeof collectPairs>>) =>
      JSON.stringify(await completionCommands(d, { ...run, judge: verdictJudge(asked) }, { started: run.started, ...pairs }));
    const whole = await commands(await collectPairs(store, run));
    const summaries = await collectPairSummaries(store, run);
    expect(await commands(summaries)).toBe(whole);
    expect(asked[1]).toBe(asked[0]); // the judge read the same figures
    // What the run exercised: the judge's pick and its spend, a comparison, failing and missing tools, estimates, run errors.
    const [verdict, comparison, complete] = JSON.parse(whole);
    expect(verdict).toMatchObject({ type: "RecordVerdict", verdict: { winner: "qwen3", judge: "judge-1" } });
    expect(verdict.judge_exchange.usage).toMatchObject({ cost: 0.002 });
    expect(comparison).toMatchObject({ type: "RecordComparison", seed: 7, resamples: 500 });
    const labels = complete.summary.fix_items.map((item: { tools_label: string | null }) => item.tools_label);
    expect(labels).toEqual(expect.arrayContaining(["failing tools", "missing tools", "suggested tools"]));
    expect(JSON.stringify(complete.summary.fix_items)).toContain("...");
    expect(complete.summary.judge_usage).toMatchObject({ estimated: true });
    expect(complete.summary.summary_by_model.qwen3).toMatchObject({ errored: expect.any(Number) });
    expect(Object.values(complete.summary.summary_by_model).some((row) => (row as { estimated: number }).estimated > 0)).toBe(true);
    // And what completion held of the pairs: no answer, no tool output, a few hundred bytes a pair.
    const held = JSON.stringify([...summaries.replays.values(), ...summaries.scored.values()]);
    expect(held.length).toBeLessThan(SCENARIOS.length * MODELS.length * 1_500);
    expect(held).not.toContain("answer 1");
    expect(held).not.toContain("row row");
  });

  it("a completed run's recorded summary is the report a rebuild from the whole events writes", async () => {
    const store = await seeded();
    expect(await handleCompletionJob(deps(store), { run_id: "r1", tenant: "acme" })).toBe("completed");
    const events = await runEvents(store, "r1");
    const pick = <T>(type: string) => events.find((e) => e.type === type)!.data as T;
    const replays = new Map<number, any>();
    const scored = new Map<number, any>();
    for (let n = 0; n < SCENARIOS.length * MODELS.length; n++) {
      const [r, s] = await pairEvents(store, "r1", n);
      replays.set(n, r.data);
      scored.set(n, s.data);
    }
    const rebuilt = reportFromRun({ started: pick("RunStarted"), replays, scored, verdict: pick("VerdictRecorded"), comparison: pick("ComparisonRecorded") });
    const { results, ...summary } = rebuilt.toJSON() as unknown as Record<string, unknown>;
    expect(JSON.stringify(pick<{ summary: unknown }>("RunCompleted").summary)).toBe(JSON.stringify(summary));
    expect(JSON.stringify(pick<{ ranking: unknown }>("VerdictRecorded").ranking)).toBe(JSON.stringify(rebuilt.summaryByModel));
    expect((results as { answer?: string }[])[0].answer).toHaveLength(ANSWER); // the rebuild had the answers
  });
});
