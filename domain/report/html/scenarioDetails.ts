// One disclosure per scenario holding every model's answer: status and score, latency, tokens and
// cost, the tool calls, the fault with its summary and recommendation, the error, the answer.

import type { Chunks } from "./chunks.js";
import { escapeHtml, truncate } from "./escape.js";
import { pieceLabel } from "./copyScript.js";
import { copyMarkdown } from "./markdownRanges.js";
import { faultNameHtml, figureHtml, latency, percent, tokens } from "./figures.js";
import type { ResultDoc } from "./reportDocument.js";
import { type ReportView, type ScenarioView } from "./reportView.js";
import { callFailed, FAILED_MARK_HTML, STATUS_MARKS } from "./scenarioMatrix.js";
import { characterLength, isBlank } from "../../support/index.js";

const ANSWER_LIMIT = 3000;
// Every <pre> opens with a newline: the parser drops the first one, so text that starts with
// its own line break keeps it.
const ERROR_LIMIT = 500;

// Errored has its own mark, not failed's in another colour (WCAG 1.4.1).
const PASSED_GLYPH = ` <i class="ok-text">${STATUS_MARKS.passed}</i>`;
const FAILED_GLYPH = ` <i class="bad-text">${STATUS_MARKS.failed}</i>`;
const ERRORED_GLYPH = ` <i class="warn-text">${STATUS_MARKS.errored}</i>`;

function statusBadge(result: ResultDoc): string {
  if (result.status === "errored") return `<span class="badge warn">errored</span>`;
  return result.status === "passed"
    ? `<span class="badge ok">passed · ${figureHtml(percent(result.score))}</span>`
    : `<span class="badge bad">failed · ${figureHtml(percent(result.score))}</span>`;
}

function toolsBlock(result: ResultDoc): string {
  const calls = result.tool_calls;
  if (!calls || calls.length === 0) return "";
  let html = `<div class="small">tools`;
  for (const call of calls) {
    const failed = callFailed(call);
    // Escaped piece by piece (the same bytes as escaping `name ✗ — detail` whole): the mark and
    // the dash are written as their references, so a failed call costs no wide-string round trip.
    const detail = failed && typeof call.detail === "string" && call.detail ? ` &#8212; ${escapeHtml(truncate(call.detail, ERROR_LIMIT))}` : "";
    html += ` <span class="badge${failed ? " bad" : ""}">${escapeHtml(`${call.name}`)}${failed ? FAILED_MARK_HTML : ""}${detail}</span>`;
  }
  return html + "</div>";
}

function faultBox(view: ReportView, result: ResultDoc): string {
  if (!result.fault) return "";
  const summary = typeof result.diagnosis?.summary === "string" ? result.diagnosis.summary : "";
  const recommendation = result.recommendation ?? "";
  // [summary, recommendation].filter(Boolean).join(" ") escaped, without the array.
  const text = summary || recommendation ? ` &#8212; ${view.proseHtml(summary, recommendation)}` : "";
  return `<div class="fault-box"><strong>${faultNameHtml(result.fault)}</strong>${text}</div>`;
}

// Hot path (one per result): one string grown by concatenation (V8 ropes, flattened once when
// the page is returned), which measured faster than pushing pieces and joining them.
function answerCard(view: ReportView, labelHtml: string, result: ResultDoc | undefined): string {
  if (!result) return `<div class="answer"><code>${labelHtml}</code> <small>not run</small></div>`;
  const tokenCount = (result.input_tokens ?? 0) + (result.output_tokens ?? 0);
  const cost = view.money(result.cost, result.metadata?.cost_source === "estimated");
  // The figures need no scan (figureHtml); a count is a number unless a document said otherwise.
  const count = typeof tokenCount === "number" ? figureHtml(tokens(tokenCount)) : escapeHtml(tokenCount);
  let html = `<div class="answer"><code>${labelHtml}</code> ${statusBadge(result)} <small${view.costTitleAttr(result)}>${figureHtml(latency(result.duration_ms))} · ${count} tokens · ${figureHtml(cost)}</small>`;
  html += toolsBlock(result) + faultBox(view, result);
  if (result.error) html += `<div class="fault-box"><strong>error</strong><pre>\n${escapeHtml(truncate(result.error, ERROR_LIMIT))}</pre></div>`;
  if (result.answer == null) html += `<p class="small">answer not retained for this run</p>`;
  else if (isBlank(result.answer)) html += `<p class="small">(empty answer)</p>`;
  else html += `<pre>\n${escapeHtml(truncate(result.answer, ANSWER_LIMIT))}</pre>${cutNote(result.answer)}`;
  return html + "</div>";
}

/** Says an answer was shortened, and from how long, so a cut is not read as where it ended. */
function cutNote(answer: string): string {
  if (answer.length <= ANSWER_LIMIT) return "";
  const length = characterLength(answer);
  return length > ANSWER_LIMIT ? `<p class="small">cut at ${ANSWER_LIMIT.toLocaleString("en-US")} of ${length.toLocaleString("en-US")} characters</p>` : "";
}

function expectations(result: ResultDoc | undefined): string {
  const expect = result?.expect;
  if (!expect) return "";
  const parts: string[] = [];
  if (expect.tools?.length) parts.push(`tools: ${expect.tools.join(", ")}`);
  if (expect.contains?.length) parts.push(`contains: ${expect.contains.join(", ")}`);
  if (expect.not_contains?.length) parts.push(`not contains: ${expect.not_contains.join(", ")}`);
  return parts.length ? `<p class="small">expects ${escapeHtml(parts.join(" · "))}</p>` : "";
}

function disclosure(view: ReportView, scenario: ScenarioView, markdown: string | undefined): string {
  let glyphs = "";
  // The marks' meaning in words, for a screen reader (which would read "[+] [!] [x]").
  let spoken = "";
  let cards = "";
  const labels = view.labels;
  for (let i = 0; i < labels.length; i++) {
    const r = scenario.byLabel.get(labels[i]);
    if (r) {
      glyphs += r.status === "passed" ? PASSED_GLYPH : r.status === "errored" ? ERRORED_GLYPH : FAILED_GLYPH;
      spoken += `${spoken ? ", " : ""}${view.labelsHtml[i]} ${r.status === "passed" || r.status === "errored" ? r.status : "failed"}`;
    }
    cards += answerCard(view, view.labelsHtml[i], r);
  }
  const first = scenario.byLabel.values().next().value as ResultDoc | undefined;
  const key = escapeHtml(scenario.key);
  return (
    `<details class="scenario" id="scenario-${key}"><summary><code>${key}</code><span class="mono" role="img" aria-label="${spoken}">${glyphs}</span>` +
    `<small>${escapeHtml(truncate(scenario.prompt, 90))}</small></summary><div class="body"><pre class="prompt">\n${escapeHtml(scenario.prompt)}</pre>` +
    `${expectations(first)}${copyMarkdown(view.copyRanges, `md-scenario-${scenario.index}`, markdown, pieceLabel(`scenario ${scenario.key}`))}${cards}</div></details>`
  );
}

export function renderScenarioDetails(html: Chunks, view: ReportView, markdown: Record<string, string>): void {
  html.add(`<section id="details"><div class="section-head"><h2>Answers</h2></div>`);
  for (const s of view.scenarios) html.add(disclosure(view, s, Object.hasOwn(markdown, s.key) ? markdown[s.key] : undefined));
  html.add("</section>");
}
