// Judge-defined KPIs on the evaluation stream (DefineKpis -> KpisDefined) and on the run stream
// (RecordKpiAuthoring -> KpiAuthoringRecorded): given events / when command / then events.
import { describe, expect, it } from "vitest";
import { evaluationAggregate } from "./evaluation/evaluationAggregate.js";
import { runAggregate } from "./run/runAggregate.js";
import { given } from "./testing/givenWhenThen.js";
import { created, GPT, record, replaced, runStarted } from "./testing/fixtures.js";
import { eventRegistry, type EventInput } from "../events/registry.js";

const NOW = "2026-11-30T12:00:00.000Z";
const judgeDefined = () => created("e1", { judge: { kind: "judge_defined", model: null }, criteria: [{ key: "response_present", type: "response_present", config: {} }] });
const kpi = (key: string) => ({ key, type: "llm_judge", config: { prompt: `Is it ${key}?` } });
const defineKpis = (extra: Record<string, unknown> = {}) => ({ type: "DefineKpis", evaluation_id: "e1", run_id: "r1", judge: "judge-model", criteria: [kpi("tone"), kpi("accuracy"), kpi("next_step")], ...extra });
const defined = (): EventInput<"KpisDefined"> => ({
  type: "KpisDefined",
  data: {
    run_id: "r1",
    criteria: [kpi("tone"), kpi("accuracy"), kpi("next_step")].map((c) => ({ ...c, defined_by: "judge-model", defined_at: NOW })),
    kpi_provenance: { judge: "judge-model", defined_at: NOW },
    judge_exchange: null,
  },
});

describe("DefineKpis", () => {
  it("records the KPIs as llm_judge criteria naming the judge and the time, and the provenance", () => {
    const [event] = given(evaluationAggregate, [judgeDefined()]).when(defineKpis());
    expect(event).toEqual(defined());
  });

  it("records nothing when the KPIs are already defined (a later run reuses them)", () => {
    expect(given(evaluationAggregate, [judgeDefined(), defined()]).when(defineKpis({ run_id: "r2" }))).toEqual([]);
  });

  it("refuses an evaluation that is not judge_defined, a KPI that is not llm_judge, and a key the criteria have", () => {
    const llm = created("e1", { judge: { kind: "llm", model: null } });
    expect(() => given(evaluationAggregate, [llm]).when(defineKpis())).toThrow(expect.objectContaining({ code: "conflict", message: expect.stringContaining("judged llm") }));
    expect(() => given(evaluationAggregate, [judgeDefined()]).when(defineKpis({ criteria: [{ key: "x", type: "contains", config: { pattern: "a" } }, kpi("a"), kpi("b")] }))).toThrow(
      "a judge-defined KPI is an llm_judge criterion",
    );
    expect(() => given(evaluationAggregate, [judgeDefined()]).when(defineKpis({ criteria: [kpi("response_present"), kpi("a"), kpi("b")] }))).toThrow(/criteria\[1\]\.key: repeats "response_present"/);
    expect(() => given(evaluationAggregate, []).when(defineKpis())).toThrow("evaluation e1 not found");
  });

  it("holds a command to what Judge.define reads from an answer: 3 to 6 KPIs, each with a lower-case snake_case key", () => {
    const evaluation = given(evaluationAggregate, [judgeDefined()]);
    expect(() => evaluation.when(defineKpis({ criteria: [kpi("tone"), kpi("accuracy")] }))).toThrow("3 to 6 KPIs are recorded, not 2");
    expect(() => evaluation.when(defineKpis({ criteria: ["a", "b", "c", "d", "e", "f", "g"].map(kpi) }))).toThrow("3 to 6 KPIs are recorded, not 7");
    expect(() => evaluation.when(defineKpis({ criteria: [kpi("Bad Key!!"), kpi("a"), kpi("b")] }))).toThrow(/criteria\[0\]\.key: "Bad Key!!" is not lower-case snake_case/);
  });

  it("a run started after them scores with the criteria and then the KPIs; a catalog sync does not drop them", () => {
    const scheduled: EventInput = { type: "RunScheduled", data: { run_id: "r2", number: 2, origin: "engine" } };
    const synced: EventInput = {
      type: "CatalogSetSynced",
      data: { catalog: { catalog_key: "c", product_key: "p", set_key: "s", digest: "a".repeat(64) }, judge: { kind: "judge_defined", model: null }, criteria: [kpi("tone")] },
    };
    const evaluation = given(evaluationAggregate, [judgeDefined(), replaced([record("a", 0)]), defined(), synced, scheduled]).state;
    expect(evaluation.kpiProvenance).toEqual({ judge: "judge-model", defined_at: NOW });
    const [started] = given(runAggregate, [], { evaluation }).when({ type: "StartRun", run_id: "r2", evaluation_id: "e1", models: [GPT] });
    const criteria = (started.data as { criteria: Record<string, unknown>[] }).criteria;
    // The synced set's own "tone" wins over the KPI of that key.
    expect(criteria.map((c) => [c.key, c.defined_by ?? null])).toEqual([["tone", null], ["accuracy", "judge-model"], ["next_step", "judge-model"]]);
  });

  it("apply only while the judge is judge_defined: a sync to another kind leaves them out of a run, a sync back brings them back", () => {
    const sync = (kind: "rules" | "llm" | "judge_defined"): EventInput => ({
      type: "CatalogSetSynced",
      data: { catalog: { catalog_key: "c", product_key: "p", set_key: "s", digest: "a".repeat(64) }, judge: { kind, model: null }, criteria: [{ key: "present", type: "response_present", config: {} }] },
    });
    const scheduled: EventInput = { type: "RunScheduled", data: { run_id: "r2", number: 2, origin: "engine" } };
    const startR2 = (events: EventInput[]) => {
      const evaluation = given(evaluationAggregate, [judgeDefined(), replaced([record("a", 0)]), defined(), ...events, scheduled]).state;
      const [started] = given(runAggregate, [], { evaluation }).when({ type: "StartRun", run_id: "r2", evaluation_id: "e1", models: [GPT] });
      return (started.data as { criteria: { key: string }[] }).criteria.map((c) => c.key);
    };
    expect(startR2([sync("rules")])).toEqual(["present"]);
    expect(startR2([sync("llm")])).toEqual(["present"]);
    expect(startR2([sync("rules"), sync("judge_defined")])).toEqual(["present", "tone", "accuracy", "next_step"]);
  });

  it("an author cannot set defined_by through CreateEvaluation: the command leaves it out", () => {
    const [event] = given(evaluationAggregate, []).when({
      type: "CreateEvaluation", evaluation_id: "e1", tenant: "acme", agent: "A", name: "N",
      criteria: [{ key: "c", type: "llm_judge", config: {}, defined_by: "me", defined_at: NOW }],
    });
    expect((event.data as { criteria: unknown[] }).criteria).toEqual([{ key: "c", type: "llm_judge", config: {} }]);
  });
});

const judgeDefinedRun = () => runStarted({ judge: { kind: "judge_defined", model: null }, judge_label: "judge-model" });
const exchange = { kind: "define", prompt_digest: "d".repeat(64), raw_answer: "nope", parsed: null, usage: { input_tokens: 10, output_tokens: 2 }, trace_ids: [], error: "the answer holds no JSON object" };

describe("RecordKpiAuthoring", () => {
  it("records defined KPIs with the define call, and folds them into the run's state", () => {
    const command = {
      type: "RecordKpiAuthoring", run_id: "r1", outcome: "defined",
      criteria: defined().data.criteria, kpi_provenance: { judge: "judge-model", defined_at: NOW },
      judge_exchange: { ...exchange, raw_answer: "{}", error: null, parsed: { kpis: [] } },
    };
    const run = given(runAggregate, [judgeDefinedRun()]);
    const [event] = run.when(command);
    expect(event.type).toBe("KpiAuthoringRecorded");
    expect(event.data).toMatchObject({ outcome: "defined", message: null, reason: null, kpi_provenance: { judge: "judge-model" } });
    const state = given(runAggregate, [judgeDefinedRun(), event]).state;
    expect(state.kpiAuthoring?.criteria.map((c) => c.key)).toEqual(["tone", "accuracy", "next_step"]);
  });

  it("records a failure with the reference's message and the judge's reason; a second settlement records nothing", () => {
    const failed = {
      type: "RecordKpiAuthoring", run_id: "r1", outcome: "failed",
      message: "Judge returned no usable KPIs — try again or add criteria manually", reason: "the answer holds no JSON object", judge_exchange: exchange,
    };
    const [event] = given(runAggregate, [judgeDefinedRun()]).when(failed);
    expect(event.data).toEqual({
      outcome: "failed", criteria: [], kpi_provenance: null,
      message: "Judge returned no usable KPIs — try again or add criteria manually", reason: "the answer holds no JSON object", judge_exchange: exchange,
    });
    expect(given(runAggregate, [judgeDefinedRun(), event]).when(failed)).toEqual([]);
  });

  it("refuses an inconsistent settlement, a run that is not judge_defined, and a run that ended", () => {
    const run = given(runAggregate, [judgeDefinedRun()]);
    expect(() => run.when({ type: "RecordKpiAuthoring", run_id: "r1", outcome: "failed" })).toThrow("a failed KPI authoring gives its message");
    expect(() => run.when({ type: "RecordKpiAuthoring", run_id: "r1", outcome: "defined", message: "x" })).toThrow("KPIs defined give their criteria and provenance");
    expect(() => given(runAggregate, [runStarted()]).when({ type: "RecordKpiAuthoring", run_id: "r1", outcome: "failed", message: "m" })).toThrow("only a judge_defined run");
    const ended = given(runAggregate, [judgeDefinedRun(), { type: "RunFailed", data: { message: "stop" } }]);
    expect(() => ended.when({ type: "RecordKpiAuthoring", run_id: "r1", outcome: "failed", message: "m" })).toThrow("run r1 is failed");
  });

  it("holds settled KPIs to the KPI rules: llm_judge, naming who defined them and when, no key of the run's own criteria", () => {
    const present = { key: "present", type: "response_present", config: {} };
    const run = given(runAggregate, [runStarted({ judge: { kind: "judge_defined", model: null }, judge_label: "judge-model", criteria: [present] })]);
    const settle = (criteria: unknown[]) => ({ type: "RecordKpiAuthoring", run_id: "r1", outcome: "defined", criteria, kpi_provenance: { judge: "judge-model", defined_at: NOW } });
    const by = { defined_by: "judge-model", defined_at: NOW };
    expect(() => run.when(settle([{ key: "present", type: "contains", config: { pattern: "x" }, ...by }]))).toThrow("a judge-defined KPI is an llm_judge criterion");
    expect(() => run.when(settle([{ ...kpi("present"), ...by }]))).toThrow(/criteria\[1\]\.key: repeats "present"/);
    expect(() => run.when(settle([{ ...kpi("Bad Key!!"), ...by }]))).toThrow("is not lower-case snake_case");
    expect(() => run.when(settle([kpi("tone")]))).toThrow("names the judge that defined it and when");
    expect(run.when(settle([{ ...kpi("tone"), ...by }]))).toHaveLength(1);
  });

  it("stores a NUL in the judge's answer as U+FFFD rather than refusing the settlement", () => {
    const [event] = given(runAggregate, [judgeDefinedRun()]).when({
      type: "RecordKpiAuthoring", run_id: "r1", outcome: "failed", message: "m", reason: "r", judge_exchange: { ...exchange, raw_answer: "a\u0000b" },
    });
    expect((event.data as { judge_exchange: { raw_answer: string } }).judge_exchange.raw_answer).toBe("a\ufffdb");
  });
});

describe("ClaimKpiAuthoring", () => {
  const claim = (claimId: string) => ({ type: "ClaimKpiAuthoring", run_id: "r1", claim_id: claimId, hold_ms: 150_000 });
  const claimed = (claimId: string, expiresAt: string): EventInput => ({ type: "KpiAuthoringStarted", data: { claim_id: claimId, expires_at: expiresAt } });
  const at = (iso: string) => ({ now: new Date(iso) });

  it("claims the settling until the judge timeout plus the margin the worker asks for", () => {
    expect(given(runAggregate, [judgeDefinedRun()], at(NOW)).when(claim("w1"))).toEqual([claimed("w1", "2026-11-30T12:02:30.000Z")]);
  });

  it("records nothing while another claim holds, or once the KPIs are settled", () => {
    const held = [judgeDefinedRun(), claimed("w1", "2026-11-30T12:02:30.000Z")];
    expect(given(runAggregate, held, at("2026-11-30T12:02:29.999Z")).when(claim("w2"))).toEqual([]);
    const settled: EventInput = { type: "KpiAuthoringRecorded", data: { outcome: "failed", criteria: [], kpi_provenance: null, message: "m", reason: null, judge_exchange: null } };
    expect(given(runAggregate, [...held, settled], at("2026-11-30T13:00:00.000Z")).when(claim("w2"))).toEqual([]);
  });

  it("takes over a claim past its expiry (its worker died), and the old claimer may no longer settle", () => {
    const held = [judgeDefinedRun(), claimed("w1", "2026-11-30T12:02:30.000Z")];
    const [takeover] = given(runAggregate, held, at("2026-11-30T12:02:30.000Z")).when(claim("w2"));
    expect(takeover).toEqual(claimed("w2", "2026-11-30T12:05:00.000Z"));
    const run = given(runAggregate, [...held, takeover]);
    expect(() => run.when({ type: "RecordKpiAuthoring", run_id: "r1", claim_id: "w1", outcome: "failed", message: "m" })).toThrow("claimed by another worker");
    expect(run.when({ type: "RecordKpiAuthoring", run_id: "r1", claim_id: "w2", outcome: "failed", message: "m" })).toHaveLength(1);
  });

  it("refuses a run that is not judge_defined or that ended", () => {
    expect(() => given(runAggregate, [runStarted()]).when(claim("w1"))).toThrow("only a judge_defined run");
    expect(() => given(runAggregate, [judgeDefinedRun(), { type: "RunFailed", data: { message: "stop" } }]).when(claim("w1"))).toThrow("run r1 is failed");
  });
});

describe("the KPI events as stored", () => {
  it("read back at version 1; criteria recorded before defined_by existed still read", () => {
    expect(eventRegistry.currentVersion("KpisDefined")).toBe(1);
    expect(eventRegistry.currentVersion("KpiAuthoringRecorded")).toBe(1);
    const old = eventRegistry.parse("EvaluationCreated", 1, { ...created().data, criteria: [{ key: "c", type: "contains", config: {} }] });
    expect((old.data as { criteria: unknown[] }).criteria).toEqual([{ key: "c", type: "contains", config: {} }]);
  });

  it("a new KpisDefined must name its judge and time on every KPI, and be llm_judge", () => {
    const bare = { ...defined(), data: { ...defined().data, criteria: [kpi("tone")] } } as EventInput;
    expect(() => eventRegistry.validate(bare)).toThrow(/criteria\[0\]\.defined_by/);
  });
});
