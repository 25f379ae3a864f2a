// How the page writes its figures. Percent, pass fractions, money and the legend are the
// shared Format rules (domain/format, reference-core §12); latency and token counts are the
// HTML page's own short forms (§14).

import { Format } from "../../format/index.js";
import { escapeHtml } from "./escape.js";
import { roundHalfAwayFromZero } from "../../support/round.js";
import { faultName } from "../faultName.js";

export const EMPTY = Format.EMPTY;
export const LEGEND = Format.LEGEND;
export const CHARS_LEGEND = Format.CHARS_LEGEND;
export const percent = (value: number | null | undefined): string => Format.percent(value);
/** `14/16 · 88%`; `—` when nothing was scored. */
export const passes = (passed: number, total: number): string => Format.passes(passed, total);
export const money = (value: number | null | undefined, estimated = false): string => Format.money(value, { estimated });

const EMPTY_HTML = "&#8212;";

/**
 * escapeHtml of a figure written here or by Format (percent, money, latency), without its scan:
 * they are ASCII but for the `—` of a missing figure. Thousands per page.
 */
export const figureHtml = (text: string): string => (text === EMPTY ? EMPTY_HTML : text);

const usable = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** `840ms` below a second, else seconds with two decimals (one from 10 s), zeros dropped. */
export function latency(ms: number | null | undefined): string {
  if (!usable(ms)) return EMPTY;
  if (ms < 1000) return `${Math.round(ms)}ms`;
  // String() of the rounded number drops trailing zeros itself (2.50 -> "2.5", 1.00 -> "1").
  return ms >= 10_000 ? `${Math.round(ms / 100) / 10}s` : `${Math.round(ms / 10) / 100}s`;
}

/** `1.2K`, `3.4M`, else the integer. */
export function tokens(count: number | null | undefined): string {
  if (!usable(count)) return EMPTY;
  if (Math.abs(count) >= 1_000_000) return `${trimOne(count / 1_000_000)}M`;
  if (Math.abs(count) >= 1_000) return `${trimOne(count / 1_000)}K`;
  return String(Math.round(count));
}

function trimOne(value: number): string {
  const text = value.toFixed(1);
  return text.endsWith(".0") ? text.slice(0, -2) : text;
}

const faultNamesHtml = new Map<string, string>();

export { faultName };

/** faultName, HTML-escaped (a fault is any string a report was given), each once. */
export function faultNameHtml(fault: string): string {
  let html = faultNamesHtml.get(fault);
  if (html === undefined) {
    html = escapeHtml(faultName(fault));
    if (faultNamesHtml.size < 1000) faultNamesHtml.set(fault, html);
  }
  return html;
}

/** One decimal, as a pass rate in percent reads (`85.7%`). */
export function ratePercent(value: number | null | undefined): string {
  if (!usable(value)) return EMPTY;
  return `${roundHalfAwayFromZero(value, 1).toFixed(1).replace(/\.0$/, "")}%`;
}
