// The per-replay budget, one rule for the worker's VERDICT_REPLAY_TIMEOUT_MS and `verdict run
// --replay-timeout MS` (a CLI run had a fixed 120 s, which no setting changed).
import type { WholeNumberRule } from "./wholeNumber.js";

export const DEFAULT_REPLAY_TIMEOUT_MS = 120_000;

/** Whole milliseconds from 1 (parseWholeNumber also refuses more than a timer can wait). */
export const REPLAY_TIMEOUT_RULE: WholeNumberRule = { min: 1, unit: "milliseconds" };
