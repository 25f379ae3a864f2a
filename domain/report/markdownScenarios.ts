// The scenario x model matrix and one `<details>` block per scenario: its prompt, its
// expectations, a table of each model's status, score, tool calls, fault and cost, and each
// answer quoted. Untrusted text goes through markdownText, so nothing escapes a cell or a block.
import { Format } from "../format/index.js";
import { cell, code, htmlInline, inline, quote } from "./markdownText.js";
import type { MarkdownSource } from "./markdownSource.js";
import type { ReportResult, ScenarioCost } from "./reportTypes.js";

const ANSWER_LIMIT = 1500;
const PROMPT_CELL_LIMIT = 70;
const SUMMARY_LIMIT = 100;
const STATUS_MARK = { passed: "✅", failed: "❌", errored: "⚠️" } as const;

/** Ruby `truncate` on code points, touching at most the first 2n units of a long text. */
export function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const chars = Array.from(text.length > 2 * limit + 2 ? text.slice(0, 2 * limit + 2) : text);
  if (chars.length <= limit) return text;
  return chars.slice(0, limit - 3).join("") + "...";
}

function matrixCell(result: ReportResult | undefined): string {
  if (!result) return Format.EMPTY;
  let text = STATUS_MARK[result.status];
  if (result.score !== null) text += ` ${Format.score(result.score)}`;
  if (result.fault) text += ` ${cell(result.fault)}`;
  return text;
}

function costText(cost: ScenarioCost | undefined): string {
  if (!cost) return Format.EMPTY;
  let text = Format.money(cost.cost, { estimated: cost.estimated });
  if (cost.judge_cost !== null) text += ` (judge ${Format.money(cost.judge_cost, { estimated: cost.estimated })})`;
  return text;
}

function byLabel(results: readonly ReportResult[]): Map<string, ReportResult> {
  const map = new Map<string, ReportResult>();
  for (const result of results) if (!map.has(result.label)) map.set(result.label, result);
  return map;
}

/** `## Scenarios`: one row per scenario, one column per model, and the scenario's cost. */
export function matrixSection(source: MarkdownSource): string {
  const head = ["Scenario", ...source.models.map((m) => code(m.label, true)), "Cost"];
  const lines = ["## Scenarios", "", `| ${head.join(" | ")} |`, `|${"---|".repeat(head.length)}`];
  for (const [key, results] of source.resultsByScenario) {
    const prompt = cell(clip(results[0].scenario.prompt, PROMPT_CELL_LIMIT));
    const found = byLabel(results);
    let row = `| ${code(key, true)} ${prompt} |`;
    for (const model of source.models) row += ` ${matrixCell(found.get(model.label))} |`;
    row += ` ${costText(source.scenarioCosts[key])} |`;
    lines.push(row);
  }
  return lines.join("\n");
}

function expectationsLine(scenario: ReportResult["scenario"]): string {
  const parts: string[] = [];
  const list = (values: readonly string[]): string => values.map((v) => code(v)).join(", ");
  if (scenario.expectedTools.length > 0) parts.push(`tools ${list(scenario.expectedTools)}`);
  if (scenario.expectedPatterns.length > 0) parts.push(`contains ${list(scenario.expectedPatterns)}`);
  if (scenario.forbiddenPatterns.length > 0) parts.push(`not contains ${list(scenario.forbiddenPatterns)}`);
  return `**Expectations:** ${parts.length > 0 ? parts.join(" · ") : "none"}`;
}

function toolsText(result: ReportResult): string {
  const calls = new Map<string, { count: number; failed: boolean }>();
  for (const call of result.replay.toolCalls) {
    const seen = calls.get(call.name) ?? { count: 0, failed: false };
    seen.count += 1;
    if (call.error !== null && call.error !== undefined && call.error !== false) seen.failed = true;
    calls.set(call.name, seen);
  }
  if (calls.size === 0) return Format.EMPTY;
  const parts: string[] = [];
  for (const [name, seen] of calls) parts.push(`${name}${seen.failed ? " ✗" : ""}${seen.count > 1 ? ` ×${seen.count}` : ""}`);
  return cell(parts.join(", "));
}

function statusText(result: ReportResult): string {
  return `${STATUS_MARK[result.status]} ${result.status}`;
}

function modelRow(result: ReportResult, cost: ScenarioCost | undefined): string {
  const own = cost?.models[result.label];
  const estimated = own?.cost_source === "estimated";
  const money = Format.money(result.replay.cost, { estimated });
  return `| ${code(result.label, true)} | ${statusText(result)} | ${Format.score(result.score)} | ${toolsText(result)} | ${result.fault ? cell(result.fault) : Format.EMPTY} | ${money} |`;
}

function answerBlock(result: ReportResult): string[] {
  let head = `#### ${code(result.label)} · ${result.status}`;
  if (result.score !== null) head += ` · score ${Format.score(result.score)}`;
  const lines = ["", head, ""];
  const answer = result.replay.answer;
  lines.push(answer && answer.trim() !== "" ? quote(clip(answer, ANSWER_LIMIT)) : "_(no answer)_");
  if (result.fault) {
    const words = [result.summary, result.recommendation].filter((w): w is string => !!w).join(" ");
    lines.push("", `**Fault:** ${inline(result.fault)} — ${inline(words)}`);
  }
  if (result.status === "errored" && result.replay.error) lines.push("", `**Error:** ${inline(clip(result.replay.error, ANSWER_LIMIT))}`);
  return lines;
}

/** One scenario as a `<details>` block; null when the report has no result for that key. */
export function scenarioBlock(source: MarkdownSource, key: string): string | null {
  const results = source.resultsByScenario.get(key);
  if (!results || results.length === 0) return null;
  const { scenario } = results[0];
  const passed = results.filter((r) => r.status === "passed").length;
  const summary = `<code>${htmlInline(key)}</code> · ${htmlInline(clip(scenario.prompt, SUMMARY_LIMIT))} · ${passed}/${results.length} passed`;
  const cost = source.scenarioCosts[key];
  const lines = [
    "<details>",
    `<summary>${summary}</summary>`,
    "",
    quote(scenario.prompt),
    "",
    expectationsLine(scenario),
    "",
    "| Model | Status | Score | Tool calls | Fault | Cost |",
    "|---|---|---|---|---|---|",
  ];
  for (const result of results) lines.push(modelRow(result, cost));
  for (const result of results) lines.push(...answerBlock(result));
  lines.push("", "</details>");
  return lines.join("\n");
}
