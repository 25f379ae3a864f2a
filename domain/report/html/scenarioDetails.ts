// One disclosure per scenario holding every model's answer: status and score, latency, tokens and
// cost, the tool calls, the fault with its summary and recommendation, the error, the answer.

import { copyBlock } from "./copyScript.js";
import { escapeHtml, truncate } from "./escape.js";
import { faultName, latency, percent } from "./figures.js";
import type { ResultDoc } from "./reportDocument.js";
import type { ReportView, ScenarioView } from "./reportView.js";
import { callFailed, glyph } from "./scenarioMatrix.js";

export const ANSWER_LIMIT = 3000;
export const ERROR_LIMIT = 500;

function statusBadge(result: ResultDoc): string {
  if (result.status === "errored") return `<span class="badge warn">errored</span>`;
  const cls = result.status === "passed" ? "ok" : "bad";
  return `<span class="badge ${cls}">${escapeHtml(`${result.status} · ${percent(result.score)}`)}</span>`;
}

function toolsBlock(result: ResultDoc): string {
  const calls = result.tool_calls ?? [];
  if (calls.length === 0) return "";
  const items = calls.map((call) => {
    const failed = callFailed(call);
    const detail = failed && typeof call.detail === "string" && call.detail ? ` — ${truncate(call.detail, ERROR_LIMIT)}` : "";
    return `<span class="badge${failed ? " bad" : ""}">${escapeHtml(`${call.name}${failed ? " ✗" : ""}${detail}`)}</span>`;
  });
  return `<div class="small">tools ${items.join("")}</div>`;
}

function faultBox(result: ResultDoc): string {
  if (!result.fault) return "";
  const summary = typeof result.diagnosis?.summary === "string" ? result.diagnosis.summary : "";
  const text = [summary, result.recommendation ?? ""].filter(Boolean).join(" ");
  return `<div class="fault-box"><strong>${escapeHtml(faultName(result.fault))}</strong>${text ? ` — ${escapeHtml(text)}` : ""}</div>`;
}

function answerCard(view: ReportView, label: string, result: ResultDoc | undefined): string {
  if (!result) return `<div class="answer"><code>${escapeHtml(label)}</code> <span class="small">not run</span></div>`;
  const tokenCount = (result.input_tokens ?? 0) + (result.output_tokens ?? 0);
  const meta = `${latency(result.duration_ms)} · ${tokenCount} tokens · ${view.money(result.cost, result.metadata?.cost_source === "estimated")}`;
  const error = result.error ? `<div class="fault-box"><strong>error</strong><pre>${escapeHtml(truncate(result.error, ERROR_LIMIT))}</pre></div>` : "";
  const answer =
    result.answer == null
      ? `<p class="small">answer not retained for this run</p>`
      : result.answer === ""
        ? `<p class="small">(empty answer)</p>`
        : `<pre>${escapeHtml(truncate(result.answer, ANSWER_LIMIT))}</pre>`;
  return (
    `<div class="answer"><div><code>${escapeHtml(label)}</code> ${statusBadge(result)} <span class="small">${escapeHtml(meta)}</span></div>` +
    `${toolsBlock(result)}${faultBox(result)}${error}${answer}</div>`
  );
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
  const glyphs = view.labels
    .map((label) => {
      const r = scenario.byLabel.get(label);
      return r ? `<span class="${r.status === "passed" ? "ok-text" : r.status === "errored" ? "warn-text" : "bad-text"}">${glyph(r.status)}</span>` : "";
    })
    .join(" ");
  const first = scenario.byLabel.values().next().value as ResultDoc | undefined;
  return (
    `<details class="scenario" id="scenario-${escapeHtml(scenario.key)}"><summary><code>${escapeHtml(scenario.key)}</code>` +
    `<span class="mono">${glyphs}</span><span class="small">${escapeHtml(truncate(scenario.prompt, 90))}</span></summary>` +
    `<div class="body"><pre class="prompt">${escapeHtml(scenario.prompt)}</pre>${expectations(first)}` +
    `${copyBlock(`md-scenario-${scenario.index}`, markdown)}` +
    `${view.labels.map((label) => answerCard(view, label, scenario.byLabel.get(label))).join("")}</div></details>`
  );
}

export function renderScenarioDetails(view: ReportView, markdown: Record<string, string>): string {
  const blocks = view.scenarios.map((s) => disclosure(view, s, Object.hasOwn(markdown, s.key) ? markdown[s.key] : undefined));
  return `<section id="details"><div class="section-head"><h2>Answers</h2></div>${blocks.join("")}</section>`;
}
