// Public surface of domain/format: `Format.passes`, `Format.percent`, `Format.score`,
// `Format.threshold`, `Format.money`, `Format.perMillion`, `Format.costTitle`, `Format.LEGEND`,
// `Format.EMPTY`.
//
//   Format.passes(14, 16)                      // "14/16 · 88%"
//   Format.passes(14, 16, { markdown: true })  // "14/16 (88%)"
//   Format.money(0.02433, { estimated: true }) // "~$0.0243"
import * as functions from "./format.js";

/** A plain frozen object rather than a module namespace: reports call it in tight loops. */
export const Format = Object.freeze({ ...functions });
export type { PassesOptions, MoneyOptions, CostRate, CostTitleInput } from "./format.js";
