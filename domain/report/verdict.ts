// The pick (reference-core §13.4): rank by pass rate, then mean score, then cost per priced
// scenario (cheaper first, unpriced last); ties keep model order. The judge's spend never
// enters the ranking. A judge, when asked, may override the winner and the rationale.
import { Format } from "../format/index.js";
import { hasScoredAnswer, verdictCandidates } from "../judge/index.js";
import { costIsEstimated, costPerPriced, type CostFigures } from "./summary.js";
import type { ModelSummary, Verdict } from "./reportTypes.js";

/** What the ranking reads of a model's summary (a ModelSummary, or its JSON document). */
export interface RankFigures extends CostFigures {
  pass_rate: number;
  avg_score: number | null;
  cost: number | null;
  priced: number;
  /** Pairs run and how many were run_errors (an older document may lack them). */
  scenarios?: number;
  errored?: number;
}

/**
 * Best first: a model with a scored answer before one without (every pair a run_error, or none
 * run: its empty answers' rule scores say nothing of it), then pass rate, then mean score (none
 * as 0), then cost per priced scenario (unpriced last; the unrounded mean, costPerPriced); 0 on a tie.
 */
export function compareRank(x: RankFigures, y: RankFigures): number {
  const scoredX = hasScoredAnswer(x);
  if (scoredX !== hasScoredAnswer(y)) return scoredX ? -1 : 1;
  if (x.pass_rate !== y.pass_rate) return y.pass_rate - x.pass_rate;
  const sx = x.avg_score ?? 0;
  const sy = y.avg_score ?? 0;
  if (sx !== sy) return sy - sx;
  const cx = costPerPriced(x);
  const cy = costPerPriced(y);
  if (cx === cy) return 0;
  if (cx === null) return 1;
  if (cy === null) return -1;
  return cx - cy;
}

export function rankModels(summaries: Record<string, ModelSummary>): string[] {
  const labels = Object.keys(summaries);
  const order = new Map(labels.map((label, i) => [label, i]));
  return labels.sort((a, b) => compareRank(summaries[a], summaries[b]) || order.get(a)! - order.get(b)!);
}

/** `Passed 2 of 2 scenarios (100%) with a mean score of 100% at ~$0.0010 (estimated).` */
function rationaleFor(summary: ModelSummary): string {
  const noun = summary.scenarios === 1 ? "scenario" : "scenarios";
  const share = Format.percent(summary.scenarios > 0 ? summary.passed / summary.scenarios : null);
  let text = `Passed ${summary.passed} of ${summary.scenarios} ${noun} (${share})`;
  if (summary.avg_score !== null) text += ` with a mean score of ${Format.score(summary.avg_score)}`;
  if (summary.cost !== null) {
    const estimated = costIsEstimated(summary);
    text += ` at ${Format.money(summary.cost, { estimated })}`;
    if (estimated) text += " (estimated)";
  }
  return `${text}.`;
}

/** What the verdict says when every pair of every model errored: there is nothing to rank. */
export const NOTHING_SCORED = "No model can be picked: every pair is a run_error, so no answer was scored.";
/** What the verdict says when no model has a result at all ("Passed 0 of 0" would still name one). */
export const NOTHING_RUN = "No model can be picked: no scenario was run.";

/** The verdict's `judge` when no judge picked: the ranking did (the Markdown's "_(picked by pass rate)_"). */
export const RANKED_BY = "pass rate";

/**
 * The rule-based verdict, or null for a single model: the best ranked model with a scored answer.
 * When no model has a result, or every pair errored (the agent was unreachable, say), no model
 * wins: the ranking would name one by the rule scores of empty answers ("Best model: … Passed 0
 * of 4", or "Passed 0 of 0"), which says nothing about the models.
 */
export function rankedVerdict(summaries: Record<string, ModelSummary>): Verdict | null {
  const labels = Object.keys(summaries);
  if (labels.length < 2) return null;
  if (labels.every((label) => summaries[label].scenarios === 0)) return { winner: null, rationale: NOTHING_RUN, judge: RANKED_BY };
  // A model whose every pair errored never answered: it ranks last (compareRank), so it is not
  // picked while any model has a scored answer; when none has, nothing is.
  if (verdictCandidates(summaries).length === 0) return { winner: null, rationale: NOTHING_SCORED, judge: RANKED_BY };
  const [winner] = rankModels(summaries);
  return { winner, rationale: rationaleFor(summaries[winner]), judge: RANKED_BY };
}

/**
 * The ranking with a judge's answer laid over it: its present winner / rationale win. A judge
 * that picks another model and gives no rationale gets that model's own figures as the
 * rationale, not the ranked winner's (reference-core §13.4 keeps the ranked rationale, which
 * would credit the judge's pick with another model's pass rate).
 */
export function judgedVerdict(
  ranked: Verdict,
  judgeLabel: string,
  answer: { winner?: unknown; rationale?: unknown } | null,
  summaries: Record<string, ModelSummary>,
): Verdict {
  if (!answer) return ranked;
  const winner = typeof answer.winner === "string" && answer.winner.trim() !== "" ? answer.winner : ranked.winner;
  // A pick among models that were not compared (a host's own judge; the Judge refuses one) says nothing.
  if (winner !== null && !Object.hasOwn(summaries, winner)) return ranked;
  if (typeof answer.rationale === "string" && answer.rationale.trim() !== "") return { winner, rationale: answer.rationale, judge: judgeLabel };
  const own = winner !== ranked.winner && winner !== null ? rationaleFor(summaries[winner]) : ranked.rationale;
  return { winner, rationale: own, judge: judgeLabel };
}
