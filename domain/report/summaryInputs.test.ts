import { describe, expect, it } from "vitest";
import { Replay } from "../replay/index.js";
import { Result } from "../runner/result.js";
import { Scenario } from "../scenarios/scenario.js";
import { Report } from "./report.js";
import { summaryDiagnosis, summaryReplay, summaryToolCall, TOOL_NOTE_LIMIT, type ReplayDocumentLike } from "./summaryInputs.js";

const MODELS = ["gpt-5-mini", "claude-sonnet-5", "qwen3"].map((label) => ({ label, provider: "openai", model: label }));
const big = (seed: string, size: number) => `${seed} `.repeat(Math.ceil(size / (seed.length + 1))).slice(0, size);

/** Tool calls of every kind a note is made from: long, blank, absent, short and emoji details; errors of every truthy kind. */
function calls(i: number): Record<string, unknown>[] {
  return [
    { name: "lookup_order", arguments: { order_id: big("4821", 5_000) }, result: big("row", 50_000), duration_ms: 40 },
    { name: "track_parcel", error: "timeout", detail: big(`carrier ${i} answered 503`, 300), result: big("html", 20_000) },
    { name: "refund_order", error: i % 2 === 0 ? "" : 0, detail: " ".repeat(200) },
    { name: "send_email", error: { code: 500, body: big("x", 10_000) } },
    { name: "notify", error: true, detail: `${"é".repeat(56)}😀😀😀😀😀` },
    { name: "search_kb", error: false, detail: big("kb", 5_000) },
    { name: "cancel_order", error: null, detail: null },
    { name: "lookup_user", error: "denied", detail: "  short  " },
  ];
}

const diagnoses: (Record<string, unknown> | null)[] = [
  null,
  { fault: "expected_tool_not_called", summary: "Expected refund_order.", recommendation: "Enable refund_order.", evidence: { unavailable: ["refund_order"], excerpt: big("a", 2_000) } },
  { fault: "expected_tool_not_called", summary: "Expected lookup_order.", recommendation: "Call lookup_order first.", evidence: { tools_available: ["lookup_order"], arguments: big("b", 9_000) } },
  { fault: "expected_tool_not_called", summary: "Expected wire_money.", recommendation: "Add wire_money.", evidence: { tool_calls: big("c", 3_000) } },
  { fault: "tool_error", summary: "track_parcel failed.", recommendation: "Retry the carrier.", evidence: { failed: ["track_parcel"] } },
  { fault: "missing_capability", summary: "No refund tool.", recommendation: "Add one.", evidence: {}, judge: { suggested_tool: { name: "issue_refund", description: "Refunds" }, instruction_change: "Always confirm the order id." } },
  { fault: "forbidden_pattern", summary: "Leaked a password.", recommendation: "Never echo secrets.", evidence: { matched: big("hunter2", 400) }, judge: { instruction_change: "Always confirm the order id." } },
];

/** A recorded replay as ReplayRecorded holds it, with long answers and tool output. */
function replayDoc(i: number): ReplayDocumentLike & Record<string, unknown> {
  const errored = i % 11 === 5;
  return {
    answer: errored ? null : big(`answer ${i}`, 100_000),
    tool_calls: calls(i) as never,
    duration_ms: i % 9 === 4 ? null : 800 + i * 37,
    input_tokens: 1000 + i,
    output_tokens: i % 7 === 3 ? null : 200 + i,
    ...(errored ? { error: `ECONNREFUSED ${big("stack", 8_000)}` } : {}),
    cost: i % 5 === 2 ? null : 0.0001 * (i + 1),
    metadata: {
      ...(i % 3 === 0 ? { cost_source: "estimated", cost_rate: { input: 0.25, output: 2, source: "rates.yaml" } } : {}),
      ...(i % 4 === 1 ? { judge_usage: { calls: 2, input_tokens: 900, output_tokens: 20, cost: 0.0003, model: "judge-1", by_kind: { score: 2 }, source: "metered" } } : {}),
      trace_id: `t${i}`,
      raw_messages: big("message", 30_000),
    },
  };
}

function results(slim: boolean): Result[] {
  const scenarios = [0, 1, 2, 3, 4, 5].map((s) => new Scenario({ key: `s${s}`, prompt: `Prompt ${s}`, expectedTools: s % 2 ? ["refund_order", "lookup_order"] : [] }));
  const out: Result[] = [];
  scenarios.forEach((scenario, s) => {
    MODELS.forEach((spec, m) => {
      const i = s * MODELS.length + m;
      const diagnosis = i % 4 === 0 ? null : diagnoses[i % diagnoses.length];
      const doc = replayDoc(i);
      const status = doc.error ? "errored" : diagnosis ? "failed" : "passed";
      out.push(new Result({
        scenario,
        spec,
        replay: Replay.from(slim ? summaryReplay(doc) : doc),
        scores: { length: (i % 10) / 10, task_completion: i % 6 === 0 ? null : ((i * 3) % 10) / 10 },
        score: status === "errored" ? null : (i % 10) / 10,
        status,
        diagnosis: (slim ? summaryDiagnosis(diagnosis) : diagnosis) as never,
      }));
    });
  });
  return out;
}

function summary(slim: boolean): string {
  const report = new Report({ results: results(slim), models: MODELS, judgeLabel: "judge-1", judgeUsage: { calls: 1, input_tokens: 300, output_tokens: 40, cost: 0.001, by_kind: { verdict: 1 } }, metadata: { ci: "yes" } });
  const { results: _results, ...rest } = report.toJSON() as unknown as Record<string, unknown>;
  return JSON.stringify(rest);
}

describe("summaryInputs", () => {
  it("a report of the kept parts writes the summary a report of the whole results writes", () => {
    const whole = summary(false);
    expect(summary(true)).toBe(whole);
    // The run covers what the parts feed: failing tools' notes, missing tools, estimates, judge spend.
    const doc = JSON.parse(whole);
    const kinds = doc.fix_items.map((item: { tools_label: string | null }) => item.tools_label);
    expect(kinds).toEqual(expect.arrayContaining(["missing tools", "failing tools", "suggested tools"]));
    expect(JSON.stringify(doc.fix_items)).toContain("...");
    expect(doc.judge_usage.estimated).toBe(true);
    expect(Object.values(doc.summary_by_model).some((row) => (row as { estimated: number }).estimated > 0)).toBe(true);
    expect(Object.values(doc.summary_by_model).some((row) => (row as { errored: number }).errored > 0)).toBe(true);
    expect(doc.comparison).toMatchObject({ seed: 0, resamples: 5000, confidence: 0.95 });
  });

  it("keeps no answer, error text or tool output: a pair's kept replay is a few hundred bytes", () => {
    for (let i = 0; i < 18; i++) {
      const doc = replayDoc(i);
      expect(JSON.stringify(doc).length).toBeGreaterThan(100_000);
      expect(JSON.stringify(summaryReplay(doc)).length).toBeLessThan(1_500);
      expect(JSON.stringify(summaryDiagnosis(diagnoses[i % diagnoses.length]) ?? null).length).toBeLessThan(400);
    }
  });

  it("cuts a failed call's detail to the note, keeps a blank one blank, and marks the failure", () => {
    expect(summaryToolCall({ name: "a", error: "timeout", detail: "x".repeat(500), result: "y".repeat(500) })).toEqual({ name: "a", error: true, detail: `${"x".repeat(TOOL_NOTE_LIMIT - 3)}...` });
    expect(summaryToolCall({ name: "a", error: "", detail: " ".repeat(500) })).toEqual({ name: "a", error: true, detail: "" });
    expect(summaryToolCall({ name: "a", error: 0 })).toEqual({ name: "a", error: true });
    expect(summaryToolCall({ name: "a", error: false, detail: "fine", arguments: { q: 1 } })).toEqual({ name: "a" });
  });
});
