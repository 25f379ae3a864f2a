// The scenario × model matrix: a group row for each run of consecutive scenarios sharing a group,
// then a row per scenario (key linking to its disclosure, full prompt, expected tools, one cell
// per model, the scenario's cost). The scenario and group cells are row headers, so a screen
// reader names the row of every cell it reads.

import type { Chunks } from "./chunks.js";
import { escapeHtml } from "./escape.js";
import { faultNameHtml, figureHtml, passes, percent } from "./figures.js";
import type { ResultDoc, ToolCallDoc } from "./reportDocument.js";
import { roundCost, type ReportView, type ScenarioView } from "./reportView.js";

/** Ruby truthiness of a call's `error`: anything but nil and false. */
export const callFailed = (call: ToolCallDoc): boolean => call.error != null && call.error !== false;

/** Calls grouped by name in first-call order: `lookup ✗ ×2`. */
function callSummary(calls: ToolCallDoc[] | null | undefined): string {
  if (!calls || calls.length === 0) return "";
  if (calls.length === 1) return `${calls[0].name}${callFailed(calls[0]) ? " ✗" : ""}`;
  const groups = new Map<string, { count: number; failed: boolean }>();
  for (const call of calls) {
    const name = String(call.name);
    const group = groups.get(name) ?? { count: 0, failed: false };
    group.count += 1;
    if (callFailed(call)) group.failed = true;
    groups.set(name, group);
  }
  let text = "";
  for (const [name, g] of groups) text += `${text ? ", " : ""}${name}${g.failed ? " ✗" : ""}${g.count > 1 ? ` ×${g.count}` : ""}`;
  return text;
}

/** ` ✗` escaped. */
export const FAILED_MARK_HTML = " &#10007;";

/** escapeHtml(callSummary(calls)), escaped piece by piece: no wide-string round trip for a ` ✗`. */
function callSummaryHtml(calls: ToolCallDoc[] | null | undefined): string {
  if (!calls || calls.length === 0) return "";
  if (calls.length === 1) return `${escapeHtml(`${calls[0].name}`)}${callFailed(calls[0]) ? FAILED_MARK_HTML : ""}`;
  // Several calls (rare): the summary escaped whole.
  return escapeHtml(callSummary(calls));
}

/**
 * A result's mark as it reads on the page: `[+]` passed, `[!]` failed, `[x]` errored (each in its
 * own colour too, but never only the colour). The Markdown has its own marks (✅ ❌ ⚠️).
 */
export const STATUS_MARKS = { passed: "[+]", failed: "[!]", errored: "[x]" } as const;

// The mark is punctuation to a screen reader, so it is hidden from one and the status said in a
// word instead (an errored cell already says "errored").
const PASSED_CELL = `<td class="c-p"><b><span aria-hidden="true">${STATUS_MARKS.passed}</span><span class="sr-only">passed</span> `;
const FAILED_CELL = `<td class="c-f"><b><span aria-hidden="true">${STATUS_MARKS.failed}</span><span class="sr-only">failed</span> `;
const ERRORED_CELL = `<td class="c-e"><b><span aria-hidden="true">${STATUS_MARKS.errored}</span> errored</b>`;

// Hot path (one per result): plain concatenation, no intermediate arrays.
function cell(view: ReportView, result: ResultDoc | undefined): string {
  if (!result) return `<td><small>&#8212;</small></td>`;
  const status = result.status;
  let html = status === "passed" ? `${PASSED_CELL}${figureHtml(percent(result.score))}</b>`
    : status === "errored" ? ERRORED_CELL : `${FAILED_CELL}${figureHtml(percent(result.score))}</b>`;
  if (result.fault) html += `<small>${faultNameHtml(result.fault)}</small>`;
  const calls = callSummaryHtml(result.tool_calls);
  if (calls) html += `<small class="mono">${calls}</small>`;
  if (typeof result.cost === "number") {
    html += `<small${view.costTitleAttr(result)}>${figureHtml(view.money(result.cost, result.metadata?.cost_source === "estimated"))}</small>`;
  }
  return html + "</td>";
}

function scenarioRow(view: ReportView, scenario: ScenarioView): string {
  const first = scenario.byLabel.values().next().value as ResultDoc | undefined;
  const expected = first?.expect?.tools?.length ? `<small>expects ${escapeHtml(first.expect.tools.join(", "))}</small>` : "";
  const cost = scenario.cost == null && scenario.judgeCost == null ? "—"
    : `${view.money(roundCost(scenario.cost), scenario.agentEstimated)}${scenario.judgeCost == null ? "" : ` (judge ${view.money(roundCost(scenario.judgeCost), scenario.judgeEstimated)})`}`;
  const key = escapeHtml(scenario.key);
  let html = `<tr><th scope="row"><a href="#scenario-${key}"><code>${key}</code></a><div class="prompt">${escapeHtml(scenario.prompt)}</div>${expected}</th>`;
  for (const label of view.labels) html += cell(view, scenario.byLabel.get(label));
  return html + `<td><small>${escapeHtml(cost)}</small></td></tr>`;
}

function groupRow(view: ReportView, group: string, members: ScenarioView[]): string {
  let cost: number | null = null;
  let estimated = false;
  const cells = view.labels.map((label) => {
    let passed = 0;
    let total = 0;
    for (const scenario of members) {
      const result = scenario.byLabel.get(label);
      if (!result) continue;
      total += 1;
      if (result.status === "passed") passed += 1;
    }
    const cls = total > 0 && passed === total ? "all" : total > 0 && passed === 0 ? "none" : "";
    return `<td class="${cls}">${escapeHtml(total ? `${passes(passed, total)} passed` : "—")}</td>`;
  });
  for (const scenario of members) {
    if (scenario.cost != null) cost = (cost ?? 0) + scenario.cost;
    if (scenario.agentEstimated) estimated = true;
  }
  // Named as the catalog names it (reference report_html: group_name, else the group's key).
  return `<tr class="group"><th scope="row">${escapeHtml(members[0]?.groupName || group)}</th>${cells.join("")}<td class="num">${escapeHtml(view.money(roundCost(cost), estimated))}</td></tr>`;
}

/**
 * The box a wide table scrolls sideways in: a named region in the tab order, so a keyboard can
 * scroll it (its cells hold few or no focusable things), drawn with an outline when focused.
 */
export function scrollRegion(titleId: string): string {
  return `<div class="scroll" tabindex="0" role="region" aria-labelledby="${titleId}">`;
}

export function renderMatrix(html: Chunks, view: ReportView): void {
  const head = view.labelsHtml.map((label) => `<th scope="col"><code>${label}</code></th>`).join("");
  html.add(
    `<section id="scenarios" class="matrix"><div class="section-head"><h2 id="scenarios-title">Scenarios</h2></div>${scrollRegion("scenarios-title")}` +
    `<table aria-labelledby="scenarios-title"><thead><tr><th scope="col">Scenario</th>${head}<th scope="col">Cost</th></tr></thead><tbody>`,
  );
  const scenarios = view.scenarios;
  for (let i = 0; i < scenarios.length; ) {
    const group = scenarios[i].group;
    let end = i + 1;
    while (end < scenarios.length && scenarios[end].group === group) end += 1;
    if (group) html.add(groupRow(view, group, scenarios.slice(i, end)));
    for (let j = i; j < end; j++) html.add(scenarioRow(view, scenarios[j]));
    i = end;
  }
  html.add("</tbody></table></div></section>");
}
