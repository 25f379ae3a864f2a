// ClearKpis: an evaluation's judge-defined KPIs cleared, so its next judge_defined run has its
// judge define them again (reference-platform §1 #19 holds no way back; README says why this one).
import { DomainError } from "../../events/domainError.js";
import type { EventInput } from "../../events/registry.js";
import type { ClearKpis } from "./evaluationCommands.js";
import type { EvaluationState } from "./evaluationState.js";

/**
 * KpisCleared naming the keys cleared, their provenance, who and when. Idempotent: an evaluation
 * holding no KPIs (never defined, or cleared already) records nothing, so a retried clear is not
 * an error. Another tenant's evaluation is not found, exactly as a missing one. KPIs recorded
 * while the judge is another kind (kept for a sync back to judge_defined) are cleared too. An
 * archived evaluation is cleared and stays archived, as its suite may be changed and stay so.
 * A define call asked before the clear records nothing after it (decideDefineKpis: the call says
 * how many clears it had seen), so the next run asks.
 */
export function decideClearKpis(state: EvaluationState, command: ClearKpis, now: Date): EventInput[] {
  if (!state.exists || state.tenant !== command.tenant) throw DomainError.notFound(`evaluation ${command.evaluation_id} not found`, "evaluation_id");
  if (state.kpis.length === 0) return [];
  const data = { kpi_keys: state.kpis.map((kpi) => kpi.key), kpi_provenance: state.kpiProvenance, cleared_by: command.cleared_by, cleared_at: now.toISOString() };
  return [{ type: "KpisCleared", data }];
}
