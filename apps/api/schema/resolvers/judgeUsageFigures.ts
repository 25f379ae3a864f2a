// A run's judge side from the database's figures (ReadModels.runUsageFigures): its calls by kind,
// the model they name and the calls no result owns, summed as the report's judge_usage sums them
// (domain/cost judgeUsage): every result's part, then the run's own.
import { roundHalfAwayFromZero } from "@verdict/domain";
import type { JudgeKindFigures, RunUsageFigures } from "@verdict/projector";
import type { JudgeKindUsage, JudgeUsageFigures } from "../types/run.js";

/** The kinds the platform's judge and the reference meter, in this order; any other kind follows, by name. */
const KIND_ORDER = ["score", "recommend", "verdict", "define"];

const round6 = (value: number | null): number | null => (value === null ? null : roundHalfAwayFromZero(value, 6));

function kindRank(kind: string): number {
  const at = KIND_ORDER.indexOf(kind);
  return at < 0 ? KIND_ORDER.length : at;
}

/**
 * Parts of the same kind summed: calls always; tokens and cost only when every part splits them
 * by kind (one that does not, an imported report's tally, leaves the kind's tokens and cost
 * unknown), the cost null when no part had one.
 */
function byKind(parts: readonly JudgeKindFigures[]): JudgeKindUsage[] {
  const kinds = new Map<string, JudgeKindFigures>();
  for (const part of parts) {
    const seen = kinds.get(part.kind);
    if (!seen) {
      kinds.set(part.kind, { ...part });
      continue;
    }
    const split = seen.inputTokens !== null && part.inputTokens !== null && seen.outputTokens !== null && part.outputTokens !== null;
    seen.calls += part.calls;
    seen.cost = split ? (seen.cost === null && part.cost === null ? null : (seen.cost ?? 0) + (part.cost ?? 0)) : null;
    seen.inputTokens = split ? seen.inputTokens! + part.inputTokens! : null;
    seen.outputTokens = split ? seen.outputTokens! + part.outputTokens! : null;
  }
  return [...kinds.values()]
    .sort((a, b) => kindRank(a.kind) - kindRank(b.kind) || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0))
    .map((kind) => ({ ...kind, cost: round6(kind.cost) }));
}

const named = (model: string | null | undefined): model is string => typeof model === "string" && model.trim() !== "";

/**
 * The judge's model (the first one its usage names: the results' in run order, then the run's
 * own, as the report's judge_usage.model), its calls by kind over every result and the run's
 * own, and the run's own part (null when no call is recorded on the run itself).
 */
export function judgeUsageFigures(figures: Pick<RunUsageFigures, "judgeKinds" | "judgeModels" | "judgeRun">): JudgeUsageFigures {
  const run = figures.judgeRun;
  const fromResults = [...figures.judgeModels].sort((a, b) => a.n - b.n).find((entry) => named(entry.model))?.model;
  return {
    model: fromResults ?? (run && named(run.model) ? run.model : null),
    byKind: byKind([...figures.judgeKinds, ...(run?.byKind ?? [])]),
    run: run ? { calls: run.calls, cost: round6(run.cost), byKind: byKind(run.byKind) } : null,
  };
}
