// ClearKpis on the evaluation stream: given events / when command / then events. Clearing lets
// the next judge_defined run have its KPIs defined again.
import { describe, expect, it } from "vitest";
import { evaluationAggregate } from "./evaluation/evaluationAggregate.js";
import { runAggregate } from "./run/runAggregate.js";
import { given } from "./testing/givenWhenThen.js";
import { created, GPT, record, replaced } from "./testing/fixtures.js";
import type { EventInput } from "../events/registry.js";

const NOW = "2026-11-30T12:00:00.000Z";
const DEFINED_AT = "2026-11-29T08:00:00.000Z";
const judgeDefined = () => created("e1", { judge: { kind: "judge_defined", model: null }, criteria: [{ key: "present", type: "response_present", config: {} }] });
const kpi = (key: string) => ({ key, type: "llm_judge", config: { prompt: `Is it ${key}?` } });
const defined = (runId = "r1"): EventInput<"KpisDefined"> => ({
  type: "KpisDefined",
  data: {
    run_id: runId,
    criteria: ["tone", "accuracy", "next_step"].map((key) => ({ ...kpi(key), defined_by: "judge-model", defined_at: DEFINED_AT })),
    kpi_provenance: { judge: "judge-model", defined_at: DEFINED_AT },
    judge_exchange: null,
  },
});
const clear = (extra: Record<string, unknown> = {}) => ({ type: "ClearKpis", evaluation_id: "e1", tenant: "acme", cleared_by: "api-key:k1", ...extra });
const cleared: EventInput<"KpisCleared"> = {
  type: "KpisCleared",
  data: { kpi_keys: ["tone", "accuracy", "next_step"], kpi_provenance: { judge: "judge-model", defined_at: DEFINED_AT }, cleared_by: "api-key:k1", cleared_at: NOW },
};

describe("ClearKpis", () => {
  it("records the keys cleared, whose definition they were, who cleared them and when", () => {
    expect(given(evaluationAggregate, [judgeDefined(), defined()]).when(clear())).toEqual([cleared]);
  });

  it("leaves the evaluation without KPIs: a run started after freezes its own criteria only", () => {
    const scheduled: EventInput = { type: "RunScheduled", data: { run_id: "r2", number: 2, origin: "engine" } };
    const evaluation = given(evaluationAggregate, [judgeDefined(), replaced([record("a", 0)]), defined(), cleared, scheduled]).state;
    expect([evaluation.kpis, evaluation.kpiProvenance, evaluation.kpiDefinition]).toEqual([[], null, null]);
    const [started] = given(runAggregate, [], { evaluation }).when({ type: "StartRun", run_id: "r2", evaluation_id: "e1", models: [GPT] });
    expect((started.data as { criteria: { key: string }[] }).criteria.map((c) => c.key)).toEqual(["present"]);
  });

  it("lets the judge define them again: DefineKpis records a new KpisDefined after a clear", () => {
    const define = { type: "DefineKpis", evaluation_id: "e1", run_id: "r2", judge: "judge-2", criteria: [kpi("empathy"), kpi("accuracy"), kpi("brevity")] };
    expect(given(evaluationAggregate, [judgeDefined(), defined()]).when(define)).toEqual([]);
    const [event] = given(evaluationAggregate, [judgeDefined(), defined(), cleared]).when(define);
    expect(event.type).toBe("KpisDefined");
    expect(event.data).toMatchObject({ run_id: "r2", kpi_provenance: { judge: "judge-2", defined_at: NOW } });
  });

  it("records nothing for a define call asked before a clear and answered after it; one asked after the clear records", () => {
    const define = (clearsSeen: number) => ({ type: "DefineKpis", evaluation_id: "e1", run_id: "r2", judge: "judge-2", criteria: [kpi("empathy"), kpi("accuracy"), kpi("brevity")], clears_seen: clearsSeen });
    const history = [judgeDefined(), defined("r1"), cleared];
    expect(given(evaluationAggregate, history).state.kpiClears).toBe(1);
    const late = () => given(evaluationAggregate, history).when(define(0));
    expect(late).toThrow(expect.objectContaining({ code: "conflict", field: "evaluation_id", message: expect.stringContaining("cleared while its judge was defining them") }));
    const [next] = given(evaluationAggregate, history).when(define(1));
    expect(next).toMatchObject({ type: "KpisDefined", data: { run_id: "r2" } });
  });

  it("is idempotent: an evaluation without KPIs (never defined, or cleared already) records nothing", () => {
    expect(given(evaluationAggregate, [judgeDefined()]).when(clear())).toEqual([]);
    expect(given(evaluationAggregate, [judgeDefined(), defined(), cleared]).when(clear())).toEqual([]);
  });

  it("answers another tenant's evaluation exactly as a missing one", () => {
    const missing = () => given(evaluationAggregate, []).when(clear());
    const foreign = () => given(evaluationAggregate, [judgeDefined(), defined()]).when(clear({ tenant: "globex" }));
    expect(missing).toThrow(expect.objectContaining({ code: "not_found", field: "evaluation_id", message: "evaluation e1 not found" }));
    expect(foreign).toThrow(expect.objectContaining({ code: "not_found", field: "evaluation_id", message: "evaluation e1 not found" }));
  });

  it("clears an archived evaluation, which stays archived, and KPIs kept under another judge kind", () => {
    const archived: EventInput = { type: "EvaluationArchived", data: { archived_at: NOW } };
    const evaluation = given(evaluationAggregate, [judgeDefined(), defined(), archived]);
    expect(evaluation.when(clear())).toEqual([cleared]);
    expect(given(evaluationAggregate, [judgeDefined(), defined(), archived, cleared]).state.archived).toBe(true);
    const rules: EventInput = {
      type: "CatalogSetSynced",
      data: { catalog: { catalog_key: "c", product_key: "p", set_key: "s", digest: "a".repeat(64) }, judge: { kind: "rules", model: null }, criteria: [] },
    };
    expect(given(evaluationAggregate, [judgeDefined(), defined(), rules]).when(clear())).toEqual([cleared]);
  });

  it("refuses a command without who asked", () => {
    expect(() => given(evaluationAggregate, [judgeDefined(), defined()]).when(clear({ cleared_by: " " }))).toThrow(/cleared_by/);
  });
});
