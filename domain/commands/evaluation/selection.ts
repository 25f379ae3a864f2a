// Freezing a run's selection when it starts (reference-platform feature 7, §3 rule 8): enabled
// scenarios in position order narrowed by keys AND group; models deduplicated by label; one
// provider/model under two labels refused, since results are keyed by provider and model.
import { DomainError } from "../../events/domainError.js";
import type { EventData } from "../../events/registry.js";
import type { EvaluationScenario, ModelSpecData, ScenarioData } from "../../events/shared.js";
import type { StartRun } from "./evaluationCommands.js";
import type { EvaluationState } from "./evaluationState.js";
import { byPosition } from "./scenarioChanges.js";
import { startRequestDigest } from "../run/keyedRunId.js";

export const NO_SCENARIOS_SELECTED = "No scenarios selected — add scenarios to the evaluation or widen the selection";

export function selectScenarios(scenarios: readonly EvaluationScenario[], keys: readonly string[] | null, group: string | null): EvaluationScenario[] {
  const wanted = keys ? new Set(keys) : null;
  const selected = byPosition(scenarios).filter(
    (s) => s.enabled && (!wanted || wanted.has(s.key)) && (group === null || s.group === group),
  );
  if (selected.length === 0) throw DomainError.validation(NO_SCENARIOS_SELECTED, "selection");
  return selected;
}

export function resolveModels(models: readonly ModelSpecData[]): ModelSpecData[] {
  const byLabel = new Map<string, ModelSpecData>();
  for (const model of models) if (!byLabel.has(model.label)) byLabel.set(model.label, model);
  const resolved = [...byLabel.values()];
  if (resolved.length === 0) throw DomainError.validation("No models selected — name a model or set compare_models on the evaluation", "models");
  const byTarget = new Map<string, string>();
  for (const model of resolved) {
    const target = `${model.provider}/${model.model}`;
    const other = byTarget.get(target);
    if (other !== undefined) {
      throw DomainError.validation(`one model under two labels: "${other}" and "${model.label}" both name ${target}`, "models");
    }
    byTarget.set(target, model.label);
  }
  return resolved;
}

function asEvaluated(scenario: EvaluationScenario): ScenarioData {
  const { enabled: _enabled, ...rest } = scenario;
  return rest;
}

/** The RunStarted payload: everything a run needs, frozen so later edits never rewrite it. */
export function freezeRun(state: EvaluationState, command: StartRun, number: number): EventData<"RunStarted"> {
  const scenarios = selectScenarios(state.scenarios, command.keys, command.group);
  const models = resolveModels(command.models);
  return {
    run_id: command.run_id,
    evaluation_id: command.evaluation_id,
    tenant: state.tenant ?? "",
    number,
    external: command.external,
    selection: {
      keys: command.keys,
      group: command.group,
      scenario_keys: scenarios.map((s) => s.key),
      model_labels: models.map((m) => m.label),
    },
    scenarios: scenarios.map(asEvaluated),
    models,
    criteria: runCriteria(state),
    judge: state.judge,
    judge_label: command.judge_label ?? (state.judge.kind === "rules" ? null : state.judge.model),
    threshold: state.threshold,
    require_judge_scores: state.requireJudgeScores,
    release: command.release,
    metadata: command.metadata,
    tools: command.tools,
    catalog: state.catalog,
    // Frozen with the rest: the run names the agent it evaluated, whatever the evaluation becomes.
    agent: state.agent,
    ...(command.idempotency_key === null ? {} : { idempotency: { key: command.idempotency_key, request_digest: startRequestDigest(command) } }),
  };
}

/**
 * What a run scores with: the evaluation's criteria, then its judge-defined KPIs (a KPI whose key
 * a catalog sync has since given a criterion of its own is left out: the author's criterion wins).
 * The KPIs apply only while the judge is judge_defined: a sync to another kind keeps them recorded
 * but unused (a rules evaluation would list them as skipped llm_judge criteria, an llm one would
 * score on them), and a sync back to judge_defined brings them back.
 */
function runCriteria(state: EvaluationState) {
  if (state.kpis.length === 0 || state.judge.kind !== "judge_defined") return state.criteria;
  const keys = new Set(state.criteria.map((c) => c.key));
  return [...state.criteria, ...state.kpis.filter((kpi) => !keys.has(kpi.key))];
}
