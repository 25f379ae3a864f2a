// Judge-defined KPIs for a run of the library's Runner (reference-platform §1 #19, settled as the
// platform's worker settles them, without an event store): the judge is asked once, before any
// pair is scored, and its KPIs join the run's criteria as llm_judge criteria. When none can be
// authored the run is not failed: it scores on its own criteria and its report says why, with
// the reference's words (the platform's decision on §3 rule 23, README "judge-defined KPIs").
import type { Criterion } from "../scoring/index.js";
import type { Judge, JudgeExchange } from "../judge/judge.js";
import { KPI_NO_JUDGE_MESSAGE, KPI_UNUSABLE_MESSAGE, kpiCriterion, type RecentRun } from "../judge/kpis.js";

/** What the judge reads beyond the run's instructions and criteria. */
export interface DefineKpisOptions {
  /** What the agent is evaluated for (the platform writes the agent, the set and a few tasks). */
  description?: string | null;
  /** Earlier runs' figures, newest first (the library keeps none of its own). */
  recentRuns?: readonly RecentRun[];
}

export type KpiJudge = Pick<Judge, "label" | "define">;

/** How a run's KPIs were settled: the criteria they added, or why there are none. */
export interface KpiSettlement {
  /** The KPIs as llm_judge criteria (empty when none were authored). */
  readonly criteria: readonly Criterion[];
  /** The reference's message when none were authored, else null. */
  readonly failure: string | null;
  /** The judge's reason its answer was unusable (or why the call was skipped), else null. */
  readonly reason: string | null;
  /** The define call, when the judge was asked: the run's own judge spend. */
  readonly exchange: JudgeExchange | null;
}

/** Asks the judge for the run's KPIs; never throws for what the judge answers. */
export async function settleKpis(
  judge: KpiJudge | null,
  criteria: readonly Criterion[],
  instructions: string | null,
  options: DefineKpisOptions,
): Promise<KpiSettlement> {
  if (!judge) return { criteria: [], failure: KPI_NO_JUDGE_MESSAGE, reason: null, exchange: null };
  const existingKeys = criteria.map((criterion) => criterion.key);
  const { value, exchange } = await judge.define({ instructions, description: options.description ?? null, existingKeys, recentRuns: options.recentRuns ?? [] });
  if (!value) return { criteria: [], failure: KPI_UNUSABLE_MESSAGE, reason: exchange?.unusable_reason ?? null, exchange: exchange ?? null };
  return { criteria: value.map(kpiCriterion), failure: null, reason: null, exchange: exchange ?? null };
}

/** Whether `judge` can define KPIs (a Judge can; a hand-made object without define() cannot). */
export function canDefineKpis(judge: unknown): judge is KpiJudge {
  return typeof judge === "object" && judge !== null && typeof (judge as { define?: unknown }).define === "function";
}
