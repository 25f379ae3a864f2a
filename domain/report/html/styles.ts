// The static stylesheet. Colours come only through the design-token variables, so the theme
// blocks in designTokens.ts are the whole difference between light and dark. Small text takes a
// token that reads at 4.5:1 or better on the background it sits on in both themes (WCAG 1.4.3):
// never text-muted, nor the accent on its own tint; on a tinted cell, text-cell.
//
// Text on the page may be one long word (a URL in a recommendation, a model label, a tool name, a
// scenario key): `main`, and the header and footer beside it, let it break anywhere, and the grid
// and flex children that hold it may shrink below it (min-width: 0), so no box grows past the
// page and pushes its Copy button off-screen. Tables opt out: they keep their words whole and
// scroll inside .scroll, which is positioned so that the visually hidden status words in a cell
// are placed, and clipped, inside it rather than widening the page. A flex summary draws no
// disclosure triangle, so the open/closed marker is drawn as ::before (with empty alt text: the
// <details> itself tells a screen reader whether it is open).

import { themeCss } from "./designTokens.js";

const STATIC_CSS = `
* { box-sizing: border-box; }
html { background: var(--color-background); }
body { margin: 0; padding: 32px 24px 48px; background: var(--color-background); color: var(--color-text-primary); font: 14px/1.5 var(--font-text); }
body > header, main, body > footer { max-width: 1180px; margin-left: auto; margin-right: auto; overflow-wrap: anywhere; }
.head > *, .section-head > *, .plot-row > *, details.scenario > summary > *, footer > *, .model, .fix-card { min-width: 0; }
h1 { font-size: 22px; margin: 0 0 8px; }
h2 { font-size: 16px; margin: 0 0 12px; display: flex; gap: 12px; align-items: baseline; flex-wrap: wrap; }
h2 .meta, .meta { color: var(--color-text-secondary); font-weight: 400; font-size: 13px; }
code, pre, .mono { font-family: var(--font-mono); font-size: 12.5px; }
a { color: var(--color-info-text); }
.section-head { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; flex-wrap: wrap; margin-bottom: 12px; }
.section-head h2 { margin: 0; }
.section-head .md-source, .head .md-source { flex-basis: 100%; }
.head { display: flex; justify-content: space-between; align-items: flex-start; gap: 16px; flex-wrap: wrap; margin-bottom: 16px; }
.chips { display: flex; flex-wrap: wrap; gap: 6px; }
.chip { display: inline-block; padding: 2px 8px; border-radius: 999px; background: var(--color-muted); border: 1px solid var(--color-border); color: var(--color-text-cell); font-size: 12px; }
.chip.release { background: var(--color-info-soft); border-color: var(--color-info); color: var(--color-info-text); font-weight: 600; }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); gap: 12px; margin-bottom: 16px; }
.tile { background: var(--color-card); border: 1px solid var(--color-border); border-radius: 10px; padding: 12px 14px; }
.tile .label { color: var(--color-text-secondary); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.tile .value { font-size: 24px; font-weight: 600; margin-top: 2px; }
.tile .sub { color: var(--color-text-secondary); font-size: 12px; }
.tone-success .value { color: var(--color-success-text); }
.tone-warning .value { color: var(--color-warning-text); }
.tone-error .value { color: var(--color-error-text); }
.card { background: var(--color-surface); border: 1px solid var(--color-border); border-radius: 12px; box-shadow: var(--shadow-popover); }
.card > section { padding: 20px; border-top: 1px solid var(--color-border-light); }
.card > section:first-child { border-top: 0; }
.models { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 12px; }
.model { border: 1px solid var(--color-border); border-radius: 10px; padding: 12px 14px; background: var(--color-card); }
.model.pick { border-color: var(--color-accent); box-shadow: 0 0 0 1px var(--color-accent-b); }
.model .name { font-weight: 600; font-size: inherit; margin: 0; }
.model dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; margin: 8px 0; font-size: 13px; }
.model dt { color: var(--color-text-secondary); }
.model dd { margin: 0; color: var(--color-text-cell); }
.bar { height: 6px; border-radius: 3px; background: var(--color-muted); overflow: hidden; margin-top: 8px; }
.bar > span { display: block; height: 100%; background: var(--color-success); }
.badge { display: inline-block; padding: 1px 7px; border-radius: 999px; font-size: 11.5px; font-weight: 500; background: var(--color-muted); color: var(--color-text-cell); margin: 1px 2px 1px 0; }
.badge.pick, .star { background: var(--color-accent-b); color: var(--color-text-primary); }
.star { white-space: nowrap; padding: 1px 6px; border-radius: 999px; font-size: 11.5px; margin-left: 4px; }
.badge.ok { background: var(--color-success-soft); color: var(--color-success-text); }
.badge.bad { background: var(--color-error-soft); color: var(--color-error-text); }
.badge.warn { background: var(--color-warning-soft); color: var(--color-warning-text); }
.badge.info { background: var(--color-info-soft); color: var(--color-info-text); }
.verdict { margin-top: 12px; padding: 10px 14px; border-radius: 10px; background: var(--color-accent-ui-tint); border: 1px solid var(--color-accent-ui-muted); }
.verdict .meta { color: var(--color-text-cell); }
.scroll { position: relative; overflow-x: auto; overflow-wrap: normal; }
.scroll:focus-visible { outline: 2px solid var(--color-info); outline-offset: 2px; }
button.copy, .button { overflow-wrap: normal; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th { text-align: left; font-weight: 500; color: var(--color-text-secondary); font-size: 12px; border-bottom: 1px solid var(--color-border); padding: 6px 8px; white-space: nowrap; }
td { border-bottom: 1px solid var(--color-border-light); padding: 6px 8px; vertical-align: top; color: var(--color-text-cell); }
th[scope="row"] { font-weight: 400; font-size: inherit; color: var(--color-text-cell); border-bottom-color: var(--color-border-light); vertical-align: top; white-space: normal; }
tr:hover td, tr:hover th[scope="row"] { background: var(--color-row-hover); }
td.num, #comparison th[scope="row"] code { white-space: nowrap; }
.plot { margin-top: 16px; }
.plot-row { display: grid; grid-template-columns: minmax(120px, 200px) 1fr minmax(170px, 240px); gap: 12px; align-items: center; padding: 4px 0; font-size: 13px; }
@media (max-width: 640px) { .plot-row { grid-template-columns: minmax(0, 1fr); gap: 4px; padding: 6px 0; } }
.axis { position: relative; height: 18px; border-left: 1px solid var(--color-border-strong); border-right: 1px solid var(--color-border-strong); background: linear-gradient(var(--color-border), var(--color-border)) 0 50% / 100% 1px no-repeat; }
.axis .interval { position: absolute; top: 5px; height: 8px; border-radius: 4px; background: var(--color-info-soft); border: 1px solid var(--color-info); }
.axis .dot { position: absolute; top: 3px; width: 12px; height: 12px; margin-left: -6px; border-radius: 50%; background: var(--color-info); border: 2px solid var(--color-surface); }
.axis-labels { display: flex; justify-content: space-between; color: var(--color-text-secondary); font-size: 11px; }
.conclusion { margin: 10px 0 2px; }
.matrix td.c-p { background: var(--color-success-soft); }
.matrix td.c-f { background: var(--color-error-soft); }
.matrix td.c-e { background: var(--color-warning-soft); }
.matrix td small, .matrix th[scope="row"] small { display: block; font-size: 12px; color: var(--color-text-cell); }
.matrix td b { font-weight: 600; }
small { font-size: 12px; color: var(--color-text-secondary); }
details.scenario > summary i { font-style: normal; }
.matrix tr.group > * { background: var(--color-muted); font-weight: 500; color: var(--color-text-primary); }
.matrix tr.group td.all { color: var(--color-success-text); }
.matrix tr.group td.none { color: var(--color-error-text); }
.prompt { white-space: pre-wrap; overflow-wrap: anywhere; }
.matrix .prompt { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3; line-clamp: 3; overflow: hidden; }
.calls, .small { font-size: 12px; color: var(--color-text-secondary); }
details.scenario { border: 1px solid var(--color-border); border-radius: 10px; margin: 8px 0; background: var(--color-card); content-visibility: auto; contain-intrinsic-size: auto 44px; }
details.scenario:target { outline: 2px solid var(--color-info); outline-offset: 2px; }
details.scenario > summary { cursor: pointer; padding: 10px 14px; display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; list-style: none; }
details.scenario > summary::before { content: "\\25B8"; content: "\\25B8" / ""; color: var(--color-text-secondary); }
details.scenario[open] > summary::before { content: "\\25BE"; content: "\\25BE" / ""; }
details.scenario > .body { padding: 0 14px 14px; }
.answer { border: 1px solid var(--color-border-light); border-radius: 8px; padding: 10px 12px; margin-top: 10px; background: var(--color-surface); }
.answer pre, .fault-box pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 8px 0 0; color: var(--color-text-primary); }
.fault-box { margin-top: 8px; padding: 8px 10px; border-radius: 8px; background: var(--color-error-soft); color: var(--color-error-text); }
.fix-filter { display: flex; gap: 6px; flex-wrap: wrap; margin-bottom: 12px; }
.fix > input { position: absolute; opacity: 0; pointer-events: none; }
.fix-filter label { cursor: pointer; }
.fix-cards { display: grid; grid-template-columns: minmax(0, 1fr); gap: 10px; }
.fix-card { border: 1px solid var(--color-border); border-radius: 10px; padding: 12px 14px; background: var(--color-card); }
.fix-card .title { display: inline; font-weight: 600; font-size: inherit; margin: 0; }
.fix-card blockquote { margin: 8px 0; padding-left: 10px; border-left: 3px solid var(--color-accent-ui-muted); color: var(--color-text-cell); }
.fix-card .action { margin-top: 8px; display: flex; gap: 8px; align-items: center; }
.button, button.copy { display: inline-block; font: 500 12px var(--font-text); padding: 4px 10px; border-radius: 6px; border: 1px solid var(--color-border-strong); background: var(--color-surface); color: var(--color-text-primary); cursor: pointer; text-decoration: none; }
.button.primary { background: var(--color-accent-ui-hover); border-color: var(--color-accent-ui-hover); color: var(--color-on-accent); }
button.copy:hover { background: var(--color-hover); }
.md-source:not([hidden]) { display: block; max-height: 320px; overflow: auto; white-space: pre-wrap; padding: 10px; border: 1px dashed var(--color-border-strong); border-radius: 8px; background: var(--color-muted); color: var(--color-text-primary); }
footer { margin-top: 20px; color: var(--color-text-secondary); font-size: 12px; display: flex; flex-wrap: wrap; gap: 6px 16px; }
footer .legend { flex-basis: 100%; }
.ok-text { color: var(--color-success-text); }
.bad-text { color: var(--color-error-text); }
.warn-text { color: var(--color-warning-text); }
.sr-only { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.failure { margin: 10px 0 0; padding: 8px 12px; border-radius: 8px; background: var(--color-error-soft); color: var(--color-error-text); }
.in-progress { margin: 10px 0 0; padding: 8px 12px; border-radius: 8px; background: var(--color-warning-soft); color: var(--color-warning-text); }
`;

/** The radios are invisible, so keyboard focus on one is drawn around its chip instead. */
function focusRule(id: string): string {
  return `#${id}:focus-visible ~ .fix-filter label[for="${id}"] { outline: 2px solid var(--color-info); outline-offset: 2px; }`;
}

/**
 * Radio-chip filter: checking a model's chip hides the cards that do not involve it. The checked
 * chip is told apart by more than its colour: a tick, bolder text and a ring.
 */
function fixFilterCss(models: number): string {
  const rules: string[] = [];
  const checked = [`#fix-all:checked ~ .fix-filter label[for="fix-all"]`];
  for (let i = 0; i < models; i++) {
    rules.push(`#fix-model-${i}:checked ~ .fix-cards .fix-card:not(.m${i}) { display: none; }`);
    checked.push(`#fix-model-${i}:checked ~ .fix-filter label[for="fix-model-${i}"]`);
  }
  rules.push(`${checked.join(",\n")} { background: var(--color-accent-b); color: var(--color-text-primary); font-weight: 600; box-shadow: inset 0 0 0 1px currentColor; }`);
  // Empty alt text: the radio itself tells a screen reader it is checked.
  rules.push(`${checked.map((selector) => `${selector}::before`).join(",\n")} { content: "\\2713  "; content: "\\2713  " / ""; }`);
  rules.push(focusRule("fix-all"));
  for (let i = 0; i < models; i++) rules.push(focusRule(`fix-model-${i}`));
  return rules.join("\n");
}

export function pageCss(models: number): string {
  return [themeCss(), STATIC_CSS, fixFilterCss(models), `.matrix table { min-width: ${260 + models * 170}px; }`].join("\n");
}
