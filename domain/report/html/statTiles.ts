// The stat tiles: scenario runs, pass rate, open faults, cost, models (§14 item 2).

import { countOf } from "../../support/pluralize.js";
import { escapeHtml } from "./escape.js";
import { EMPTY, percent } from "./figures.js";
import { roundCost, type ReportView } from "./reportView.js";

function tile(label: string, value: string, sub: string, tone = ""): string {
  return (
    `<div class="tile${tone ? ` tone-${tone}` : ""}"><div class="label">${escapeHtml(label)}</div>` +
    `<div class="value">${escapeHtml(value)}</div><div class="sub">${escapeHtml(sub)}</div></div>`
  );
}

/** success at 100%, warning from 70%, else error. */
function tone(ratio: number | null): string {
  if (ratio == null) return "";
  return ratio >= 1 ? "success" : ratio >= 0.7 ? "warning" : "error";
}

/** The model's short name: what follows the provider prefix of its label. */
function shortName(label: string): string {
  const slash = label.lastIndexOf("/");
  return slash >= 0 ? label.slice(slash + 1) : label;
}

function costTile(view: ReportView): string {
  const { agentCost, judgeCost } = view;
  if (agentCost == null && judgeCost == null) return tile("Cost", EMPTY, "nothing priced");
  const total = roundCost((agentCost ?? 0) + (judgeCost ?? 0));
  const value = view.money(total, view.runEstimated);
  if (judgeCost != null) {
    const sub = `agent ${view.money(agentCost, view.agentEstimated)} · judge ${view.money(judgeCost, view.judgeEstimated)}`;
    return tile("Cost", value, sub);
  }
  const priced = view.doc.results.filter((r) => typeof r.cost === "number").length;
  return tile("Cost", value, `agent only · ${countOf(priced, "scenario run")} priced`);
}

export function renderStatTiles(view: ReportView, fixItemCount: number): string {
  const ratio = view.total > 0 ? view.passed / view.total : null;
  const models = view.labels.length;
  const modelsSub =
    view.comparing && view.winner ? `${view.pickLabel} · ${shortName(view.winner)}` : view.labels.map(shortName).join(" · ");
  return (
    `<div class="tiles">` +
    tile("Scenario runs", String(view.total), `${countOf(view.scenarios.length, "scenario")} × ${countOf(models, "model")}`) +
    tile("Pass rate", ratio == null ? EMPTY : percent(ratio), `${view.passed}/${view.total} passed`, tone(ratio)) +
    tile("Open faults", String(view.total - view.passed), countOf(fixItemCount, "fix item")) +
    costTile(view) +
    tile("Models", String(models), modelsSub) +
    `</div>`
  );
}
