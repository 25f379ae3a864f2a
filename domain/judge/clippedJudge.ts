// A Judge whose answers are kept as the platform keeps them: what it returns (a recommendation's
// fields, a verdict's rationale) and its exchange's raw answer, parsed value and reason cut by
// clippedJudgeText. The worker cuts them as it records them (apps/worker/pairWork.ts,
// completion.ts, exchanges.ts); a local run (`verdict run`), which records nothing, asks this
// one, so its report holds what a platform report of the same answers holds, not a 5 MB rationale.
import { isBlank } from "../support/index.js";
import { Judge, type JudgeOutcome } from "./judge.js";
import type { JudgeRecommendation, JudgeVerdict } from "./parse.js";
import type { DefinedKpi } from "./kpis.js";
import { clippedExchange, clippedJudgeText } from "./judgeText.js";

type Input<K extends keyof Judge> = Judge[K] extends (input: infer I) => unknown ? I : never;

function clipped<T>(outcome: JudgeOutcome<T>): JudgeOutcome<T> {
  return { value: clippedJudgeText(outcome.value), exchange: outcome.exchange && clippedExchange(outcome.exchange) };
}

export class ClippedJudge extends Judge {
  override async scoreTask(input: Input<"scoreTask">): Promise<JudgeOutcome<number>> {
    return clipped(await super.scoreTask(input));
  }

  override async scoreCriterion(input: Input<"scoreCriterion">): Promise<JudgeOutcome<number>> {
    return clipped(await super.scoreCriterion(input));
  }

  override async recommend(input: Input<"recommend">): Promise<JudgeOutcome<JudgeRecommendation>> {
    return clipped(await super.recommend(input));
  }

  override async verdict(input: Input<"verdict">): Promise<JudgeOutcome<JudgeVerdict>> {
    const outcome = await super.verdict(input);
    // A blank rationale is passed over for the ranking's own (report/verdict.ts), which the worker
    // then records short: cut, a long blank one would end in "…" and be taken instead.
    return isBlank(outcome.value?.rationale) ? { ...outcome, exchange: outcome.exchange && clippedExchange(outcome.exchange) } : clipped(outcome);
  }

  /** KPIs are recorded as defined (the worker does not cut them); only the exchange is cut. */
  override async define(input: Input<"define">): Promise<JudgeOutcome<DefinedKpi[]>> {
    const outcome = await super.define(input);
    return { ...outcome, exchange: outcome.exchange && clippedExchange(outcome.exchange) };
  }
}
