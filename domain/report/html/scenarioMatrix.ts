// The scenario × model matrix: a group row for each run of consecutive scenarios sharing a group,
// then a row per scenario (key linking to its disclosure, full prompt, expected tools, one cell
// per model, the scenario's cost).

import { escapeHtml } from "./escape.js";
import { faultName, passes, percent } from "./figures.js";
import type { ResultDoc, ToolCallDoc } from "./reportDocument.js";
import type { ReportView, ScenarioView } from "./reportView.js";

/** Ruby truthiness of a call's `error`: anything but nil and false. */
export const callFailed = (call: ToolCallDoc): boolean => call.error != null && call.error !== false;

/** Calls grouped by name in first-call order: `lookup ✗ ×2`. */
export function callSummary(calls: ToolCallDoc[] | null | undefined): string {
  if (!calls || calls.length === 0) return "";
  const groups = new Map<string, { count: number; failed: boolean }>();
  for (const call of calls) {
    const name = String(call.name);
    const group = groups.get(name) ?? { count: 0, failed: false };
    group.count += 1;
    if (callFailed(call)) group.failed = true;
    groups.set(name, group);
  }
  const parts: string[] = [];
  for (const [name, g] of groups) parts.push(`${name}${g.failed ? " ✗" : ""}${g.count > 1 ? ` ×${g.count}` : ""}`);
  return parts.join(", ");
}

export const glyph = (status: string): string => (status === "passed" ? "[+]" : "[!]");

function cell(view: ReportView, result: ResultDoc | undefined): string {
  if (!result) return `<td class="small">—</td>`;
  const parts = [`${glyph(result.status)} ${result.status === "errored" ? "errored" : percent(result.score)}`];
  const lines = [`<strong>${escapeHtml(parts[0])}</strong>`];
  if (result.fault) lines.push(`<div class="small">${escapeHtml(faultName(result.fault))}</div>`);
  const calls = callSummary(result.tool_calls);
  if (calls) lines.push(`<div class="calls mono">${escapeHtml(calls)}</div>`);
  if (typeof result.cost === "number") {
    lines.push(`<div class="small">${escapeHtml(view.money(result.cost, result.metadata?.cost_source === "estimated"))}</div>`);
  }
  return `<td class="cell-${escapeHtml(result.status)}">${lines.join("")}</td>`;
}

function scenarioRow(view: ReportView, scenario: ScenarioView): string {
  const first = scenario.byLabel.values().next().value as ResultDoc | undefined;
  const expected = first?.expect?.tools?.length ? `<div class="small">expects ${escapeHtml(first.expect.tools.join(", "))}</div>` : "";
  const cells = view.labels.map((label) => cell(view, scenario.byLabel.get(label))).join("");
  const cost = scenario.cost == null && scenario.judgeCost == null ? "—"
    : `${view.money(scenario.cost, scenario.estimated)}${scenario.judgeCost == null ? "" : ` (judge ${view.money(scenario.judgeCost, scenario.estimated)})`}`;
  return (
    `<tr><td><a href="#scenario-${escapeHtml(scenario.key)}"><code>${escapeHtml(scenario.key)}</code></a>` +
    `<div class="prompt">${escapeHtml(scenario.prompt)}</div>${expected}</td>${cells}<td class="num small">${escapeHtml(cost)}</td></tr>`
  );
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
    if (scenario.estimated) estimated = true;
  }
  return `<tr class="group"><td>${escapeHtml(group)}</td>${cells.join("")}<td class="num">${escapeHtml(view.money(cost, estimated))}</td></tr>`;
}

export function renderMatrix(view: ReportView): string {
  const rows: string[] = [];
  const scenarios = view.scenarios;
  for (let i = 0; i < scenarios.length; ) {
    const group = scenarios[i].group;
    let end = i + 1;
    while (end < scenarios.length && scenarios[end].group === group) end += 1;
    if (group) rows.push(groupRow(view, group, scenarios.slice(i, end)));
    for (let j = i; j < end; j++) rows.push(scenarioRow(view, scenarios[j]));
    i = end;
  }
  const head = view.labels.map((label) => `<th><code>${escapeHtml(label)}</code></th>`).join("");
  return (
    `<section id="scenarios" class="matrix"><div class="section-head"><h2>Scenarios</h2></div><div class="scroll"><table>` +
    `<thead><tr><th>Scenario</th>${head}<th>Cost</th></tr></thead><tbody>${rows.join("")}</tbody></table></div></section>`
  );
}
