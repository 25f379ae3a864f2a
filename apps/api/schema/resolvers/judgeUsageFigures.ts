// A run's judge side from the database's figures (ReadModels.runUsageFigures): its calls by kind,
// the model they name, where they come from and the calls no result owns, summed as the report's
// judge_usage sums them (domain/cost judgeUsage): every result's part, then the run's own.
import { JUDGE_KINDS_MAX, OTHER_JUDGE_KIND, roundHalfAwayFromZero } from "@verdict/domain";
import type { JudgeKindFigures, RunUsageFigures } from "@verdict/projector";
import { JudgeUsageSource } from "../types/enums.js";
import type { JudgeKindUsage, JudgeRunUsage } from "../types/run.js";

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
    if (seen) add(seen, part);
    else kinds.set(part.kind, { ...part });
  }
  return fold(sorted([...kinds.values()])).map((kind) => ({ ...kind, cost: round6(kind.cost) }));
}

/** A part added to a kind's sum (see byKind). */
function add(sum: JudgeKindFigures, part: JudgeKindFigures): void {
  const split = sum.inputTokens !== null && part.inputTokens !== null && sum.outputTokens !== null && part.outputTokens !== null;
  sum.calls += part.calls;
  sum.cost = split ? (sum.cost === null && part.cost === null ? null : (sum.cost ?? 0) + (part.cost ?? 0)) : null;
  sum.inputTokens = split ? sum.inputTokens! + part.inputTokens! : null;
  sum.outputTokens = split ? sum.outputTokens! + part.outputTokens! : null;
}

const sorted = (kinds: JudgeKindFigures[]): JudgeKindFigures[] =>
  kinds.sort((a, b) => kindRank(a.kind) - kindRank(b.kind) || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));

/**
 * At most JUDGE_KINDS_MAX kinds, as the projector keeps a result's and the database a run's: the
 * first JUDGE_KINDS_MAX - 1 in order, the rest summed into "other" (the results' kinds and the
 * run's own may together name more).
 */
function fold(kinds: JudgeKindFigures[]): JudgeKindFigures[] {
  if (kinds.length <= JUDGE_KINDS_MAX) return kinds;
  const named = kinds.filter((kind) => kind.kind !== OTHER_JUDGE_KIND);
  const kept = named.slice(0, JUDGE_KINDS_MAX - 1);
  const rest = [...named.slice(JUDGE_KINDS_MAX - 1), ...kinds.filter((kind) => kind.kind === OTHER_JUDGE_KIND)];
  const other: JudgeKindFigures = { ...rest[0], kind: OTHER_JUDGE_KIND };
  for (const part of rest.slice(1)) add(other, part);
  return sorted([...kept, other]);
}

const named = (model: string | null | undefined): model is string => typeof model === "string" && model.trim() !== "";

/**
 * The judge's model: the first one its usage names, the results' in run order, then the run's
 * own, as the report's judge_usage.model.
 */
export function judgeModelOf(figures: Pick<RunUsageFigures, "judgeModels" | "judgeRun">): string | null {
  const run = figures.judgeRun;
  const fromResults = [...figures.judgeModels].sort((a, b) => a.n - b.n).find((entry) => named(entry.model))?.model;
  return fromResults ?? (run && named(run.model) ? run.model : null);
}

/** The judge's calls by kind over every result and the run's own. */
export function judgeByKindOf(figures: Pick<RunUsageFigures, "judgeKinds" | "judgeRun">): JudgeKindUsage[] {
  return byKind([...figures.judgeKinds, ...(figures.judgeRun?.byKind ?? [])]);
}

/** The run's own part, null when no call is recorded on the run itself. */
export function judgeRunOf(figures: Pick<RunUsageFigures, "judgeRun">): JudgeRunUsage | null {
  const run = figures.judgeRun;
  return run ? { calls: run.calls, cost: round6(run.cost), byKind: byKind(run.byKind) } : null;
}

/**
 * Where the judge's usage comes from, by the report's rule for each result (its replay's own
 * judge_usage when it carries one, else the platform's exchanges) and the run's own part (a
 * verdict's exchange is metered, an imported report's run-level usage reported): METER when all
 * of it was metered, REPORTED when all was reported, MIXED when both; null when there is none
 * (the report has no judge_usage).
 */
export function judgeSourceOf(figures: Pick<RunUsageFigures, "judgeSources" | "judgeRun">): JudgeUsageSource | null {
  const metered = (figures.judgeSources?.meter ?? false) || (figures.judgeRun?.metered ?? false);
  const reported = (figures.judgeSources?.reported ?? false) || (figures.judgeRun?.reported ?? false);
  if (metered && reported) return JudgeUsageSource.MIXED;
  if (metered) return JudgeUsageSource.METER;
  return reported ? JudgeUsageSource.REPORTED : null;
}
