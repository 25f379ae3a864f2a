// runAudit: the run's recorded events in log order with the evidence behind each grade and the
// verdict. compareRuns: run b against run a, pair by pair.
import { Arg, Ctx, ID, Query, Resolver } from "type-graphql";
import { comparisonInModelOrder, rankingInReportOrder, scoresInScorerOrder } from "@verdict/domain";
import type { Result } from "@verdict/projector";
import type { ApiContext } from "../../server/context.js";
import { notFound } from "../../server/errors.js";
import { resultStatusOf, runStatusOf } from "../types/enums.js";
import { RunAudit, RunDiff, type GradeAudit, type PairChange } from "../types/report.js";
import { auditEvent } from "./auditEvents.js";
import { diagnosisParts, importedGrades, importedVerdict } from "./importedAudit.js";
import { runHistory } from "./runSupport.js";
import { OVER_BUDGET } from "../../server/answerBudget.js";

export function diffRuns(a: string, b: string, before: Result[], after: Result[]): RunDiff {
  const name = (r: Result) => `${r.scenarioKey}\u0000${r.modelLabel}`;
  const old = new Map(before.map((r) => [name(r), r]));
  const now = new Map(after.map((r) => [name(r), r]));
  const diff: RunDiff = { a, b, fixed: [], regressed: [], stillFailing: [], stillPassing: [], added: [], removed: [], unscored: [] };
  const change = (x: Result | undefined, y: Result | undefined): PairChange => ({
    scenarioKey: (x ?? y)!.scenarioKey,
    modelLabel: (x ?? y)!.modelLabel,
    before: x ? resultStatusOf(x.status) : null,
    after: y ? resultStatusOf(y.status) : null,
  });
  const settled = (r: Result) => r.status !== "pending";
  for (const [key, y] of now) {
    const x = old.get(key);
    if (!x) {
      diff.added.push(change(undefined, y));
      continue;
    }
    if (!settled(x) || !settled(y)) {
      diff.unscored.push(change(x, y));
      continue;
    }
    const wasPassing = x.status === "passed";
    const isPassing = y.status === "passed";
    const bucket = wasPassing ? (isPassing ? diff.stillPassing : diff.regressed) : isPassing ? diff.fixed : diff.stillFailing;
    bucket.push(change(x, y));
  }
  for (const [key, x] of old) if (!now.has(key)) diff.removed.push(change(x, undefined));
  return diff;
}

@Resolver()
export class AuditResolver {
  @Query(() => RunAudit, { nullable: true, description: `The run's events in log order, with what every grade and the verdict were decided from. ${OVER_BUDGET}` })
  async runAudit(@Arg("id", () => ID, { description: "The run's id (a run of another tenant's is NOT_FOUND)." }) id: string, @Ctx() context: ApiContext): Promise<RunAudit> {
    const history = await runHistory(context, id);
    if (history.imported) {
      return { runId: id, status: runStatusOf(history.status), events: history.events.map((event, ordinal) => auditEvent(event, ordinal)), grades: importedGrades(history.imported, history.criterionKeys), verdict: importedVerdict(history.imported) };
    }
    const record = history.record;
    const grades: GradeAudit[] = [];
    if (record) {
      const models = record.started.models;
      // Read back from jsonb, scores come with their keys sorted by length: in the order they were
      // scored (the run's criteria, its KPIs after them), as its report lists them.
      const criterionKeys = [...history.criterionKeys, ...(record.kpiAuthoring?.criteria ?? []).map((c) => c.key)];
      for (const [n, scored] of [...record.scored.entries()].sort(([x], [y]) => x - y)) {
        grades.push({
          scenarioKey: scored.scenario_key,
          modelLabel: scored.model_label,
          status: resultStatusOf(scored.status),
          score: scored.score,
          scores: scoresInScorerOrder(scored.scores, criterionKeys),
          pass: scored.pass,
          fault: scored.fault,
          ...diagnosisParts(scored.diagnosis, scored.recommendation),
          scenario: record.started.scenarios[Math.floor(n / models.length)],
          replay: record.replays.get(n)?.replay ?? null,
          judgeExchanges: scored.judge_exchanges,
        });
      }
    }
    const verdict = record?.verdict ?? null;
    const comparison = record?.comparison ?? null;
    const labels = record?.started.models.map((m) => m.label) ?? [];
    return {
      runId: id,
      status: runStatusOf(history.status),
      events: history.events.map((event, ordinal) => auditEvent(event, ordinal)),
      grades,
      verdict: verdict || comparison
        ? {
            verdict: verdict?.verdict ?? null,
            judgeLabel: verdict?.judge_label ?? null,
            // Read back from jsonb sorted by length: best first, as the ranking reads them.
            ranking: rankingInReportOrder(verdict?.ranking ?? {}, labels),
            judgeExchange: verdict?.judge_exchange ?? null,
            // Read back from jsonb, its models are sorted by length: in the run's order, as `run { comparison }` has them.
            comparison: comparison ? { ...comparison, comparison: comparisonInModelOrder(comparison.comparison, labels) } : null,
          }
        : null,
    };
  }

  @Query(() => RunDiff, { nullable: true, description: `Run b against run a by scenario key x model label: fixed, regressed, still failing, added, removed. ${OVER_BUDGET}` })
  async compareRuns(
    @Arg("a", () => ID, { description: "The run compared against (the before): a run of the tenant's, else NOT_FOUND." }) a: string,
    @Arg("b", () => ID, { description: "The run compared (the after): a run of the tenant's, else NOT_FOUND." }) b: string,
    @Ctx() context: ApiContext,
  ): Promise<RunDiff> {
    const { readModels } = context.deps;
    const tenant = context.principal.tenant;
    const [runA, runB] = await Promise.all([readModels.getRun(tenant, a), readModels.getRun(tenant, b)]);
    if (!runA) throw notFound("run", a, "a");
    if (!runB) throw notFound("run", b, "b");
    const [before, after] = await Promise.all([readModels.listResults(tenant, a), readModels.listResults(tenant, b)]);
    return diffRuns(a, b, before, after);
  }
}
