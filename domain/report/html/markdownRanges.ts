// Where each Copy as Markdown piece (verdict, scenario, What to fix, each fix item) sits in the
// whole report's Markdown. The page holds the report's Markdown once (#md-report) and a piece's
// button copies its slice, instead of every piece being escaped onto the page a second time.
// Exact by construction: a range is only kept where the piece's text was found verbatim, or
// where the report's writer said it put the scenario's piece; a piece that is not part of the
// report keeps its own hidden source.

import { copyBlock, rangeButton, type CopyLabel } from "./copyScript.js";
import type { ReportMarkdown } from "./reportDocument.js";
import type { ReportView } from "./reportView.js";

export type MarkdownRanges = Map<string, readonly [number, number]>;

/** Finds pieces in order, each from where the previous ended; stops at the first miss (no rescans). */
class Finder {
  cursor: number;
  missed = false;

  constructor(
    private readonly whole: string,
    private readonly ranges: MarkdownRanges,
    from: number,
  ) {
    this.cursor = from;
  }

  place(id: string, text: string | null | undefined): void {
    if (this.missed || typeof text !== "string" || text === "") return;
    const at = this.whole.indexOf(text, this.cursor);
    if (at < 0) {
      this.missed = true;
      return;
    }
    this.ranges.set(id, [at, at + text.length]);
    this.cursor = at + text.length;
  }
}

export function markdownRanges(view: ReportView, markdown: ReportMarkdown): MarkdownRanges {
  const ranges: MarkdownRanges = new Map();
  const report = markdown.report;
  if (typeof report !== "string" || report === "") return ranges;
  const verdict = new Finder(report, ranges, 0);
  verdict.place("md-verdict", markdown.verdict);
  const scenariosEnd = markdown.scenarioRanges
    ? placeKnown(view, markdown.scenarioRanges, ranges, report.length, verdict.cursor)
    : placeFound(view, markdown.scenarios ?? {}, new Finder(report, ranges, verdict.cursor));
  const fixItems = new Finder(report, ranges, scenariosEnd);
  fixItems.place("md-fix-items", markdown.fixItems);
  const section = ranges.get("md-fix-items");
  const items = new Finder(report, ranges, section ? section[0] : fixItems.cursor);
  (markdown.fixItem ?? []).forEach((text, i) => items.place(`md-fix-${i}`, text));
  return ranges;
}

/** The scenarios' pieces found in the report in order; returns where the last one ends. */
function placeFound(view: ReportView, texts: Record<string, string>, finder: Finder): number {
  for (const scenario of view.scenarios) {
    if (Object.hasOwn(texts, scenario.key)) finder.place(`md-scenario-${scenario.index}`, texts[scenario.key]);
  }
  return finder.cursor;
}

/** The scenarios' ranges the report's writer gave (each kept only if it lies in the report); returns where the last one ends. */
function placeKnown(view: ReportView, known: ReadonlyMap<string, readonly [number, number]>, ranges: MarkdownRanges, length: number, from: number): number {
  let end = from;
  for (const scenario of view.scenarios) {
    const range = known.get(scenario.key);
    if (!range || !(range[0] >= from && range[0] < range[1] && range[1] <= length)) continue;
    ranges.set(`md-scenario-${scenario.index}`, range);
    end = Math.max(end, range[1]);
  }
  return end;
}

/** A piece's Copy as Markdown button: a slice of the whole report's source where it is one, else its own source. */
export function copyMarkdown(ranges: MarkdownRanges, id: string, markdown: string | null | undefined, label?: CopyLabel): string {
  const range = ranges.get(id);
  return range ? rangeButton(id, range, label) : copyBlock(id, markdown, label);
}
