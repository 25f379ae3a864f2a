// The verdict piece of the Markdown report: the model table with the run's cost, the best
// model with the verdict's rationale, and (comparing) the comparison with its intervals; for a
// run that has not completed, a note that its figures are partial and nothing is decided yet.
import { Format } from "../format/index.js";
import { cell, code, inline } from "./markdownText.js";
import { costIsEstimated, costPerPriced } from "./summary.js";
import type { MarkdownSource } from "./markdownSource.js";
import type { ModelSummary } from "./reportTypes.js";
import { faultName } from "./faultName.js";
import { boundText, confidenceLabel } from "../stats/figures.js";
import { roundHalfAwayFromZero } from "../support/index.js";

/**
 * Whole milliseconds, rounded as summary.ts rounds the mean (half away from zero). The p50/p95
 * are durations a replay actually took, kept unrounded in the JSON; timed with
 * performance.now() they would otherwise print as `1530.0000000000002 ms`.
 */
const ms = (value: number | null): string => (value === null ? Format.EMPTY : `${roundHalfAwayFromZero(value, 0)} ms`);

/**
 * Cost / 1,000 at the mean over the priced replays' unrounded costs: the JSON's cost_per_1000,
 * already rounded to 6 decimals, printed at 4 could be a unit off in its last digit
 * (75.00075000000001 is $75.0008, its 6-decimal 75.00075 reads $75.0007).
 */
function costPer1000(summary: ModelSummary): number | null {
  const perPriced = costPerPriced(summary);
  return perPriced === null ? null : perPriced * 1000;
}

function faultsCell(faults: Record<string, number>): string {
  const parts: string[] = [];
  for (const fault in faults) parts.push(`${faultName(fault)} ×${faults[fault]}`);
  return parts.length > 0 ? cell(parts.join(", ")) : Format.EMPTY;
}

function judgeCell(summary: ModelSummary, estimated: boolean): string {
  if (summary.judge_cost === null && summary.judge_calls === 0) return Format.EMPTY;
  const calls = `${summary.judge_calls} ${summary.judge_calls === 1 ? "call" : "calls"}`;
  return `${Format.money(summary.judge_cost, { estimated })} (${calls})`;
}

function modelTable(source: MarkdownSource): string[] {
  const judged = source.judgeUsage !== null;
  const judgeEstimated = source.judgeUsage?.estimated === true;
  const header = ["Model", "Passed", "Mean score", "Mean latency", "p50", "p95", "Tokens in/out", "Cost", "Cost / 1,000"];
  if (judged) header.push("Judge");
  header.push("Faults");
  const lines = [`| ${header.join(" | ")} |`, `|${"---|".repeat(header.length)}`];
  for (const model of source.models) {
    const s = source.summaryByModel[model.label];
    const estimated = costIsEstimated(s);
    const row = [
      code(model.label, true),
      Format.passes(s.passed, s.scenarios, { markdown: true }),
      Format.score(s.avg_score),
      ms(s.avg_duration_ms),
      ms(s.p50_duration_ms),
      ms(s.p95_duration_ms),
      `${s.input_tokens}/${s.output_tokens}`,
      Format.money(s.cost, { estimated }),
      Format.money(costPer1000(s), { estimated }),
    ];
    if (judged) row.push(judgeCell(s, judgeEstimated));
    row.push(faultsCell(s.faults));
    lines.push(`| ${row.join(" | ")} |`);
  }
  return lines;
}

function totals(source: MarkdownSource): string[] {
  const run = source.runCosts;
  if (run.total === null) return [];
  // Each part carries `~` for its own estimate; the total for either.
  let parts = `agent ${Format.money(run.cost, { estimated: run.agent_estimated })}`;
  if (run.judge_cost !== null) parts += ` · judge ${Format.money(run.judge_cost, { estimated: run.judge_estimated })}`;
  return ["", `**Total: ${Format.money(run.total, { estimated: run.estimated })}** (${parts})`];
}

const results = (n: number): string => `${n} ${n === 1 ? "result" : "results"}`;

/**
 * An unfinished run's verdict piece says so itself (it is also served alone, without the
 * report's header): its figures are partial, and, comparing, the best model and the comparison
 * are decided when the run completes rather than guessed from part of its results.
 */
function unfinished(source: MarkdownSource): string[] {
  const undecided = source.models.length > 1 && source.verdict === null && source.comparisonJSON === null;
  if (source.inProgress) {
    const { scored, total } = source.inProgress;
    const decided = undecided ? "; the best model and the comparison are decided when the run completes" : "";
    return ["", `_Still running: these figures cover ${scored} of ${results(total)}${decided}._`];
  }
  if (source.failure) {
    const decided = undecided ? "; no best model or comparison was decided, as they are when a run completes" : "";
    return ["", `_This run failed: these figures cover the ${results(source.results.length)} scored before it stopped${decided}._`];
  }
  return [];
}

function bestModel(source: MarkdownSource): string[] {
  const verdict = source.verdict;
  if (!verdict?.winner) return verdict?.rationale ? ["", `**No best model** — ${inline(verdict.rationale)}`] : [];
  let line = `**Best model: ${code(verdict.winner)}**`;
  if (verdict.rationale) line += ` — ${inline(verdict.rationale)}`;
  if (verdict.judge) line += ` _(picked by ${inline(verdict.judge)})_`;
  return ["", line];
}

const interval = (value: [number, number] | null): string => (value === null ? Format.EMPTY : `${boundText(value[0])}–${boundText(value[1])}`);
const rate = (value: number | null): string => (value === null ? Format.EMPTY : `${value.toFixed(1)}%`);

function comparison(source: MarkdownSource): string[] {
  const json = source.comparisonJSON;
  if (!json) return [];
  const level = confidenceLabel(json.confidence);
  const lines = ["", "### Comparison", "", `| Model | Scenarios | Pass rate | ${level} interval |`, "|---|---|---|---|"];
  for (const label in json.models) {
    const m = json.models[label];
    lines.push(`| ${code(label, true)} | ${m.scenarios} | ${rate(m.pass_rate)} | ${interval(m.interval)} |`);
  }
  if (json.pairs.length > 0) {
    lines.push("", `| Pair | Scenarios | Difference | ${level} interval | Decisive |`, "|---|---|---|---|---|");
    for (const pair of json.pairs) {
      const difference = pair.difference === null ? Format.EMPTY : `${pair.difference.toFixed(1)} points`;
      const names = `${code(pair.models[0], true)} − ${code(pair.models[1], true)}`;
      lines.push(`| ${names} | ${pair.scenarios} | ${difference} | ${interval(pair.interval)} | ${pair.decisive ? "yes" : "no"} |`);
    }
  }
  lines.push("", inline(json.conclusion));
  if (source.comparisonMethod) lines.push("", `_${inline(source.comparisonMethod)}_`);
  return lines;
}

/** `## Verdict`: model table, run cost, an unfinished run's note, best model, comparison. */
export function verdictSection(source: MarkdownSource): string {
  return ["## Verdict", "", ...modelTable(source), ...totals(source), ...unfinished(source), ...bestModel(source), ...comparison(source)].join("\n");
}
