// The scenario x model matrix and one `<details>` block per scenario: its prompt, its
// expectations, a table of each model's status, score, tool calls, fault and cost, and each
// answer quoted. Untrusted text goes through markdownText, so nothing escapes a cell or a block.
import { Format } from "../format/index.js";
import { toolCallName } from "../replay/index.js";
import { cell, code, htmlInline, inline, quote } from "./markdownText.js";
import type { MarkdownSource } from "./markdownSource.js";
import type { ReportResult, ScenarioCost } from "./reportTypes.js";

const ANSWER_LIMIT = 1500;
const PROMPT_LIMIT = 4000;
const PROMPT_CELL_LIMIT = 70;
const SUMMARY_LIMIT = 100;
const STATUS_MARK = { passed: "✅", failed: "❌", errored: "⚠️" } as const;
const STATUS_TEXT = { passed: "✅ passed", failed: "❌ failed", errored: "⚠️ errored" } as const;
// Read once: a namespace getter per call adds up over thousands of rows.
const { money, score: scoreText, EMPTY } = Format;

/** Ruby `truncate` on code points, touching at most the first 2n units of a long text. */
export function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  // Walk code points (a surrogate pair is one character) only as far as the limit needs.
  const keep = Math.max(0, limit - 3);
  let units = 0;
  let cut = 0;
  for (let chars = 0; units < text.length; chars += 1) {
    if (chars === keep) cut = units;
    if (chars === limit) return `${text.slice(0, cut)}...`;
    const code = text.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff && units + 1 < text.length ? 2 : 1;
  }
  return text;
}

function matrixCell(result: ReportResult | undefined): string {
  if (!result) return EMPTY;
  let text: string = STATUS_MARK[result.status];
  if (result.score !== null) text += ` ${scoreText(result.score)}`;
  if (result.fault) text += ` ${cell(result.fault)}`;
  return text;
}

function costText(cost: ScenarioCost | undefined): string {
  if (!cost) return EMPTY;
  const estimated = cost.estimated;
  let text = money(cost.cost, { estimated });
  if (cost.judge_cost !== null) text += ` (judge ${money(cost.judge_cost, { estimated })})`;
  return text;
}

function resultFor(results: readonly ReportResult[], label: string): ReportResult | undefined {
  for (const result of results) if (result.label === label) return result;
  return undefined;
}

/** `## Scenarios`: one row per scenario, one column per model, and the scenario's cost. */
export function matrixSection(source: MarkdownSource): string {
  const head = ["Scenario", ...source.models.map((m) => code(m.label, true)), "Cost"];
  const rows = [`## Scenarios\n\n| ${head.join(" | ")} |\n|${"---|".repeat(head.length)}`];
  const costs = source.scenarioCosts;
  const labels = source.models.map((m) => m.label);
  for (const [key, results] of source.resultsByScenario) {
    let row = `| ${code(key, true)} ${cell(clip(results[0].scenario.prompt, PROMPT_CELL_LIMIT))} |`;
    for (const label of labels) row += ` ${matrixCell(resultFor(results, label))} |`;
    rows.push(`${row} ${costText(costs[key])} |`);
  }
  return rows.join("\n");
}

function codeList(values: readonly string[]): string {
  let out = "";
  for (let i = 0; i < values.length; i += 1) out += (i > 0 ? ", " : "") + code(values[i]);
  return out;
}

function expectationsLine(scenario: ReportResult["scenario"]): string {
  let parts = "";
  if (scenario.expectedTools.length > 0) parts += `tools ${codeList(scenario.expectedTools)}`;
  if (scenario.expectedPatterns.length > 0) parts += `${parts ? " · " : ""}contains ${codeList(scenario.expectedPatterns)}`;
  if (scenario.forbiddenPatterns.length > 0) parts += `${parts ? " · " : ""}not contains ${codeList(scenario.forbiddenPatterns)}`;
  return `**Expectations:** ${parts || "none"}`;
}

/** Calls grouped by name in first-call order: `name`, ` ✗` when any failed, ` ×k` when repeated. */
function toolsText(result: ReportResult): string {
  const calls = result.replay.toolCalls;
  if (calls.length === 0) return EMPTY;
  if (calls.length === 1) {
    // The usual case: one call, no grouping to do.
    const only = calls[0];
    return cell(only.error !== null && only.error !== undefined && only.error !== false ? `${toolCallName(only)} ✗` : toolCallName(only));
  }
  const names: string[] = [];
  const counts: number[] = [];
  const failed: boolean[] = [];
  for (const call of calls) {
    const name = toolCallName(call);
    let at = names.indexOf(name);
    if (at < 0) { at = names.push(name) - 1; counts.push(0); failed.push(false); }
    counts[at] += 1;
    if (call.error !== null && call.error !== undefined && call.error !== false) failed[at] = true;
  }
  let out = "";
  for (let i = 0; i < names.length; i += 1) {
    out += (i > 0 ? ", " : "") + names[i] + (failed[i] ? " ✗" : "") + (counts[i] > 1 ? ` ×${counts[i]}` : "");
  }
  return cell(out);
}

/** Each label's code span, in a cell and in a heading, worked out once per report. */
const labelCodes = new WeakMap<object, Map<string, [string, string]>>();

function labelCode(source: MarkdownSource, label: string): [string, string] {
  let codes = labelCodes.get(source);
  if (!codes) { codes = new Map(); labelCodes.set(source, codes); }
  let pair = codes.get(label);
  if (!pair) { pair = [code(label, true), code(label)]; codes.set(label, pair); }
  return pair;
}

function modelRow(source: MarkdownSource, result: ReportResult, cost: ScenarioCost | undefined): string {
  const estimated = cost?.models[result.label]?.cost_source === "estimated";
  const fault = result.fault ? cell(result.fault) : EMPTY;
  // join() gives a flat string; a template would leave a rope of a dozen nodes per row.
  return ["| ", labelCode(source, result.label)[0], " | ", STATUS_TEXT[result.status], " | ", scoreText(result.score), " | ", toolsText(result), " | ", fault, " | ", money(result.replay.cost, { estimated }), " |"].join("");
}

function writeAnswer(parts: string[], source: MarkdownSource, result: ReportResult): void {
  parts.push("", `#### ${labelCode(source, result.label)[1]} · ${result.status}${result.score !== null ? ` · score ${scoreText(result.score)}` : ""}`, "");
  const answer = result.replay.answer;
  parts.push(answer && answer.trim() !== "" ? quote(clip(answer, ANSWER_LIMIT)) : "_(no answer)_");
  if (result.status === "errored" && result.replay.error) parts.push("", `**Error:** ${inline(clip(result.replay.error, ANSWER_LIMIT))}`);
}

/** One scenario as a `<details>` block; null when the report has no result for that key. */
export function scenarioBlock(source: MarkdownSource, key: string): string | null {
  const results = source.resultsByScenario.get(key);
  if (!results || results.length === 0) return null;
  const { scenario } = results[0];
  let passed = 0;
  for (const result of results) if (result.status === "passed") passed += 1;
  const cost = source.scenarioCosts[key];
  // Lines joined once: the block comes out flat rather than as a rope of small pieces.
  const parts = [
    "<details>",
    `<summary><code>${htmlInline(key)}</code> · ${htmlInline(clip(scenario.prompt, SUMMARY_LIMIT))} · ${passed}/${results.length} passed</summary>`,
    "",
    quote(clip(scenario.prompt, PROMPT_LIMIT)),
    "",
    expectationsLine(scenario),
    "",
    "| Model | Status | Score | Tool calls | Fault | Cost |",
    "|---|---|---|---|---|---|",
  ];
  for (const result of results) parts.push(modelRow(source, result, cost));
  for (const result of results) writeAnswer(parts, source, result);
  parts.push("", "</details>");
  return parts.join("\n");
}

/**
 * `## Answers` with every scenario's block, and where each block sits in that text, so one
 * scenario is a slice of the whole (the same bytes, written once).
 */
export function answersSection(source: MarkdownSource): { text: string; spans: Map<string, [number, number]> } {
  const blocks = ["## Answers"];
  const spans = new Map<string, [number, number]>();
  let at = blocks[0].length;
  for (const key of source.resultsByScenario.keys()) {
    const block = scenarioBlock(source, key)!;
    blocks.push(block);
    at += 2;
    spans.set(key, [at, at + block.length]);
    at += block.length;
  }
  return { text: blocks.join("\n\n"), spans };
}
