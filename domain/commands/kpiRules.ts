// The rules a recorded KPI keeps, checked by the deciders (DefineKpis on the evaluation,
// RecordKpiAuthoring on the run) as Judge.define checks the judge's answer: a command cannot
// record KPIs that the worker's reading of an answer would have refused.
import { DomainError } from "../events/domainError.js";
import { kpiKeyProblem } from "../judge/kpis.js";
import { criteriaProblem } from "../scoring/criterionConfig.js";

type Criterion = { key: string; type: string; config?: Readonly<Record<string, unknown>> | null };

/**
 * `kpis` are between `count.min` and `count.max` llm_judge criteria, each with a KPI key (lower-case
 * snake_case) that neither `criteria` (what they are scored beside) nor another KPI has.
 */
export function mustBeKpis(kpis: readonly Criterion[], criteria: readonly Criterion[], count: { min: number; max: number }): void {
  if (kpis.length < count.min || kpis.length > count.max) {
    throw DomainError.validation(`criteria: ${count.min} to ${count.max} KPIs are recorded, not ${kpis.length}`, "criteria");
  }
  if (kpis.some((kpi) => kpi.type !== "llm_judge")) throw DomainError.validation("criteria: a judge-defined KPI is an llm_judge criterion", "criteria");
  for (const [index, kpi] of kpis.entries()) {
    const problem = kpiKeyProblem(kpi.key);
    if (problem) throw DomainError.validation(`criteria[${index}].key: ${problem}`, `criteria[${index}].key`);
  }
  const problem = criteriaProblem([...criteria, ...kpis]);
  if (problem) throw DomainError.validation(`${problem.field}: ${problem.rule}`, problem.field);
}
