// The scenario x model matrix and one `<details>` block per scenario: its prompt, its
// expectations, a table of each model's status, score, tool calls, fault and cost, and each
// answer quoted. Untrusted text goes through markdownText, so nothing escapes a cell or a block.
import { Format } from "../format/index.js";
import { toolCallName } from "../replay/index.js";
import { cell, code, htmlInline, inline, quote } from "./markdownText.js";
import type { MarkdownSource } from "./markdownSource.js";
import type { ReportResult, ScenarioCost } from "./reportTypes.js";
import { faultName } from "./faultName.js";
import type { TextWriter } from "./textWriter.js";

const ANSWER_LIMIT = 1500;
const PROMPT_LIMIT = 4000;
const PROMPT_CELL_LIMIT = 70;
const SUMMARY_LIMIT = 100;
const STATUS_MARK = { passed: "✅", failed: "❌", errored: "⚠️" } as const;
const STATUS_TEXT = { passed: "✅ passed", failed: "❌ failed", errored: "⚠️ errored" } as const;
// Read once: a namespace getter per call adds up over thousands of rows.
const { money, score: scoreText, EMPTY } = Format;
// money()'s options, made once rather than per row.
const ESTIMATED = { estimated: true } as const;
const REPORTED = { estimated: false } as const;

/** Ruby `truncate` on code points, touching at most the first 2n units of a long text. */
function clip(text: string, limit: number): string {
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

/** A matrix cell per score, status and fault; a report has few distinct ones (emptied per section). */
const matrixCells = new Map<number | null, Partial<Record<ReportResult["status"], Map<string, string>>>>();

function matrixCell(result: ReportResult | undefined): string {
  if (!result) return EMPTY;
  let byStatus = matrixCells.get(result.score);
  if (!byStatus) { byStatus = {}; matrixCells.set(result.score, byStatus); }
  const byFault = (byStatus[result.status] ??= new Map());
  const fault = result.fault ?? "";
  let text = byFault.get(fault);
  if (text === undefined) {
    text = STATUS_MARK[result.status];
    if (result.score !== null) text += ` ${scoreText(result.score)}`;
    if (fault) text += ` ${cell(faultName(fault))}`;
    byFault.set(fault, text);
  }
  return text;
}

function costText(cost: ScenarioCost | undefined): string {
  if (!cost) return EMPTY;
  // Each part carries its own `~`: a reported judge spend is not an estimate because the agent's was.
  let text = money(cost.cost, { estimated: cost.agent_estimated });
  if (cost.judge_cost !== null) text += ` (judge ${money(cost.judge_cost, { estimated: cost.judge_estimated })})`;
  return text;
}

function resultFor(results: readonly ReportResult[], label: string): ReportResult | undefined {
  for (const result of results) if (result.label === label) return result;
  return undefined;
}

/** `## Scenarios`: one row per scenario, one column per model, and the scenario's cost. */
export function matrixSection(source: MarkdownSource): string {
  const head = ["Scenario", ...source.models.map((m) => code(m.label, true)), "Cost"];
  let text = `## Scenarios\n\n| ${head.join(" | ")} |\n|${"---|".repeat(head.length)}`;
  const costs = source.scenarioCosts;
  const labels = source.models.map((m) => m.label);
  matrixCells.clear();
  for (const [key, results] of source.resultsByScenario) {
    text += `\n| ${code(key, true)} ${cell(clip(results[0].scenario.prompt, PROMPT_CELL_LIMIT))} |`;
    for (const label of labels) text += ` ${matrixCell(resultFor(results, label))} |`;
    text += ` ${costText(costs[key])} |`;
  }
  matrixCells.clear();
  return text;
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
function groupedTools(calls: ReportResult["replay"]["toolCalls"]): string {
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

// Writing the `<details>` blocks of one report. A report has thousands of results but only a
// handful of distinct labels, scores, costs, faults and tool names: each of those is formatted
// once and reused, so a row is mostly the concatenation of ready strings. The caches live at
// module level and are emptied around each use (writing is synchronous), not in an object per
// report: V8 drops the hidden class of a per-call object once the last one is collected, and
// with it every optimized function that read one ("weak objects"), so after each full GC the
// writer ran unoptimized, at twice the cost.
const labelTexts = new Map<string, LabelTexts>();
const faultCells = new Map<string, string>();
const toolCells = new Map<string, string>();
const failedToolCells = new Map<string, string>();
/** Tool cell, then fault cell: the text between the score and the cost cells of a row. */
const middles = new Map<string, Map<string, string>>();
/** The texts of the block being written, by result. */
const blockTexts: ResultTexts[] = [];

/** A result's row up to its tool calls, and its answer heading. */
interface ResultTexts {
  row: string;
  heading: string;
}

/** A label's texts: its row's first cells and its answer heading, per score and status. */
interface LabelTexts {
  row: string;
  heading: string;
  byScore: Map<number | null, Partial<Record<ReportResult["status"], ResultTexts>>>;
}

function clearCaches(): void {
  for (const cache of [labelTexts, faultCells, toolCells, failedToolCells, middles]) cache.clear();
  blockTexts.length = 0;
}

/** `| \`label\` | ✅ passed | 93% | ` and `\n\n#### \`label\` · passed · score 93%\n\n`, formatted once each. */
function resultTexts(result: ReportResult): ResultTexts {
  let label = labelTexts.get(result.label);
  if (!label) {
    label = { row: `| ${code(result.label, true)} | `, heading: `#### ${code(result.label)} · `, byScore: new Map() };
    labelTexts.set(result.label, label);
  }
  const score = result.score;
  let byStatus = label.byScore.get(score);
  if (!byStatus) { byStatus = {}; label.byScore.set(score, byStatus); }
  const status = result.status;
  let texts = byStatus[status];
  if (!texts) {
    texts = {
      row: `${label.row}${STATUS_TEXT[status]} | ${scoreText(score)} | `,
      heading: `\n\n${label.heading}${status}${score !== null ? ` · score ${scoreText(score)}` : ""}\n\n`,
    };
    byStatus[status] = texts;
  }
  return texts;
}

function faultCell(fault: string | null): string {
  if (!fault) return EMPTY;
  let text = faultCells.get(fault);
  if (text === undefined) { text = cell(faultName(fault)); faultCells.set(fault, text); }
  return text;
}

function toolsCell(result: ReportResult): string {
  const calls = result.replay.toolCalls;
  if (calls.length === 0) return EMPTY;
  if (calls.length > 1) return groupedTools(calls);
  // The usual case: one call, no grouping to do.
  const only = calls[0];
  const name = toolCallName(only);
  const failed = only.error !== null && only.error !== undefined && only.error !== false;
  const cache = failed ? failedToolCells : toolCells;
  let text = cache.get(name);
  if (text === undefined) { text = cell(failed ? `${name} ✗` : name); cache.set(name, text); }
  return text;
}

/** `tools | fault | `: few distinct pairs in a report, each written once. */
function middleCells(result: ReportResult): string {
  const tools = toolsCell(result);
  const fault = faultCell(result.fault);
  let byFault = middles.get(tools);
  if (!byFault) { byFault = new Map(); middles.set(tools, byFault); }
  let text = byFault.get(fault);
  if (text === undefined) { text = `${tools} | ${fault} | `; byFault.set(fault, text); }
  return text;
}

function modelRow(result: ReportResult, texts: ResultTexts, cost: ScenarioCost | undefined): string {
  const estimated = cost?.models[result.label]?.cost_source === "estimated";
  return texts.row + middleCells(result) + money(result.replay.cost, estimated ? ESTIMATED : REPORTED) + " |";
}

function answerText(result: ReportResult, texts: ResultTexts): string {
  const answer = result.replay.answer;
  let text = texts.heading + (answer && answer.trim() !== "" ? quote(clip(answer, ANSWER_LIMIT)) : "_(no answer)_");
  if (result.status === "errored" && result.replay.error) text += `\n\n**Error:** ${inline(clip(result.replay.error, ANSWER_LIMIT))}`;
  return text;
}

function writeBlock(source: MarkdownSource, key: string): string | null {
  const results = source.resultsByScenario.get(key);
  if (!results || results.length === 0) return null;
  const { scenario } = results[0];
  let passed = 0;
  for (const result of results) if (result.status === "passed") passed += 1;
  const cost = source.scenarioCosts[key];
  let text = `<details>\n<summary><code>${htmlInline(key)}</code> · ${htmlInline(clip(scenario.prompt, SUMMARY_LIMIT))} · ${passed}/${results.length} passed</summary>\n\n`;
  text += `${quote(clip(scenario.prompt, PROMPT_LIMIT))}\n\n${expectationsLine(scenario)}\n\n${TABLE_HEAD}`;
  // Each result's texts are looked up once, for its row and again for its answer.
  blockTexts.length = 0;
  for (const result of results) {
    const texts = resultTexts(result);
    blockTexts.push(texts);
    text += `\n${modelRow(result, texts, cost)}`;
  }
  for (let i = 0; i < results.length; i += 1) text += answerText(results[i], blockTexts[i]);
  return `${text}\n\n</details>`;
}

const TABLE_HEAD = "| Model | Status | Score | Tool calls | Fault | Cost |\n|---|---|---|---|---|---|";

/**
 * `## Answers` with every scenario's block, written where `writer` stands, and where each block
 * sits in the writer's text, so one scenario is a slice of the whole (the same bytes, written once).
 */
export function writeAnswers(source: MarkdownSource, writer: TextWriter): Map<string, [number, number]> {
  clearCaches();
  const spans = new Map<string, [number, number]>();
  writer.write("## Answers");
  for (const key of source.resultsByScenario.keys()) {
    const block = writeBlock(source, key)!;
    writer.write("\n\n");
    const at = writer.length;
    writer.write(block);
    spans.set(key, [at, at + block.length]);
  }
  clearCaches();
  return spans;
}
