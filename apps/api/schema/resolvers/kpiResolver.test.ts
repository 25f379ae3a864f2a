// Evaluation.kpis and kpiProvenance read what applies: the recorded KPIs while the judge is
// judge_defined, none while it is another kind (they stay recorded, and come back with it).
import "reflect-metadata";
import { describe, expect, it } from "vitest";
import type { EvaluationNode } from "../types/evaluation.js";
import { EvaluationKpiResolver } from "./kpiResolver.js";

const recorded = (kind: string) => ({
  judge: { kind, model: null },
  kpis: [{ key: "tone", type: "llm_judge", config: { prompt: "Is it polite?" }, defined_by: "j", defined_at: "2026-11-30T12:00:00.000Z" }],
  kpiProvenance: { judge: "j", defined_at: "2026-11-30T12:00:00.000Z" },
}) as unknown as EvaluationNode;

describe("Evaluation.kpis", () => {
  const resolver = new EvaluationKpiResolver();

  it("lists the recorded KPIs and their provenance while the judge is judge_defined", () => {
    expect(resolver.kpis(recorded("judge_defined")).map((k) => k.key)).toEqual(["tone"]);
    expect(resolver.kpiProvenance(recorded("judge_defined"))).toEqual({ judge: "j", definedAt: "2026-11-30T12:00:00.000Z" });
  });

  it("lists none while the judge is another kind", () => {
    for (const kind of ["rules", "llm"]) {
      expect(resolver.kpis(recorded(kind))).toEqual([]);
      expect(resolver.kpiProvenance(recorded(kind))).toBeNull();
    }
  });
});
