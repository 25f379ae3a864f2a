// Is the gap real? (guide, "Is the gap real?"): each model's pass rate with a percentile-
// bootstrap interval over whole scenarios, every pair's difference on the scenarios both
// ran, and whether the ranking is decisive. Seeded, so the same results give the same
// intervals every time; `toJSON()` carries seed, resamples and confidence as evidence, and
// `Comparison.fromJSON` rebuilds a recorded one without resampling.

import { bootstrapIntervals, type BootstrapRequest, type ScenarioMatrix } from "./bootstrap.js";
import { comparisonConclusion, comparisonMethod } from "./conclusion.js";
import { readRecordedComparison } from "./comparisonRecord.js";
import { roundBound } from "./figures.js";
import { roundHalfAwayFromZero as roundHalfAway, keyedRecord } from "../support/index.js";

/** What Comparison reads from a result: its scenario, its model label and its status. */
export interface ComparableResult {
  scenario?: { key: string } | null;
  /** A serialized result (Result#toJSON) names its scenario this way instead. */
  scenario_key?: string;
  label: string;
  status: string;
}

export type ComparisonModelRef = string | { label: string };

export interface ComparisonOptions {
  results: Iterable<ComparableResult>;
  models: readonly ComparisonModelRef[];
  seed?: number;
  resamples?: number;
  confidence?: number;
}

export type ComparisonInterval = [number, number];

export interface ModelComparison {
  scenarios: number;
  /** Percent, one decimal; null when the model ran no scenario. */
  pass_rate: number | null;
  /** Percent, one decimal (more when a bound that is not zero would round to 0.0); null below two scenarios. */
  interval: ComparisonInterval | null;
}

export interface PairComparison {
  /** Leader first: the model with the higher pass rate on the shared scenarios (model order on ties). */
  models: [string, string];
  /** Scenarios both models ran. */
  scenarios: number;
  /** Leader minus other, percentage points, one decimal; null when they share none. */
  difference: number | null;
  interval: ComparisonInterval | null;
  /** The difference's interval excludes zero. */
  decisive: boolean;
}

export interface ComparisonJSON {
  models: Record<string, ModelComparison>;
  pairs: PairComparison[];
  conclusion: string;
  seed: number;
  resamples: number;
  confidence: number;
}

const RECORDED = Symbol("recorded comparison");
const MAX_RESAMPLES = 100_000;

export class Comparison {
  readonly models: Readonly<Record<string, ModelComparison>>;
  readonly pairs: readonly PairComparison[];
  readonly conclusion: string;
  readonly seed: number;
  readonly resamples: number;
  readonly confidence: number;

  constructor(options: ComparisonOptions) {
    const data = (options as { [RECORDED]?: ComparisonJSON })[RECORDED] ?? computeComparison(options);
    this.models = data.models;
    this.pairs = data.pairs;
    this.conclusion = data.conclusion;
    this.seed = data.seed;
    this.resamples = data.resamples;
    this.confidence = data.confidence;
  }

  /** Rebuilds a recorded comparison as it was recorded: nothing is resampled. */
  static fromJSON(recorded: unknown): Comparison {
    return new Comparison({ [RECORDED]: readRecordedComparison(recorded) } as unknown as ComparisonOptions);
  }

  /** Model labels in the order they were compared. */
  get labels(): string[] {
    return Object.keys(this.models);
  }

  /** How the intervals were computed, as one sentence for a report. */
  get method(): string {
    return comparisonMethod(this);
  }

  toJSON(): ComparisonJSON {
    const models: Record<string, ModelComparison> = keyedRecord();
    for (const [label, model] of Object.entries(this.models)) {
      models[label] = { scenarios: model.scenarios, pass_rate: model.pass_rate, interval: copyInterval(model.interval) };
    }
    return {
      models,
      pairs: this.pairs.map((pair) => ({
        models: [pair.models[0], pair.models[1]],
        scenarios: pair.scenarios,
        difference: pair.difference,
        interval: copyInterval(pair.interval),
        decisive: pair.decisive,
      })),
      conclusion: this.conclusion,
      seed: this.seed,
      resamples: this.resamples,
      confidence: this.confidence,
    };
  }
}

function copyInterval(interval: ComparisonInterval | null): ComparisonInterval | null {
  return interval ? [interval[0], interval[1]] : null;
}

function computeComparison(options: ComparisonOptions): ComparisonJSON {
  const seed = options.seed ?? 0;
  const resamples = options.resamples ?? 5000;
  const confidence = options.confidence ?? 0.95;
  validateSettings(seed, resamples, confidence);
  const labels = modelLabels(options.models);
  const matrix = scenarioMatrix(labels, options.results);
  const { width, ran, values } = matrix;
  // Passes (a count unless a scenario ran twice) over the scenarios a model shares with another.
  const passesOver = (model: number, other: number): { n: number; sum: number } => {
    let n = 0;
    let sum = 0;
    for (let u = 0; u < width; u++) {
      if (ran[model * width + u] && ran[other * width + u]) {
        n++;
        sum += values[model * width + u];
      }
    }
    return { n, sum };
  };
  // Percent as the summary's pass_rate is (passed × 100 / scenarios, reference-core §13.1):
  // multiplied before dividing, so an exact half such as 51/80 = 63.75% stays exact and
  // rounds to 63.8, where (51 / 80) × 100 is 63.74999… and rounds to 63.7.
  const percent = (count: number, n: number): number => roundHalfAway((count * 100) / n, 1);

  const requests: BootstrapRequest[] = labels.map((_, model) => ({ kind: "model", model }));
  const pairPoints: { leader: number; other: number; n: number; difference: number | null }[] = [];
  for (let a = 0; a < labels.length; a++) {
    for (let b = a + 1; b < labels.length; b++) {
      const first = passesOver(a, b);
      const second = passesOver(b, a);
      // Both sums are over the same shared scenarios, so their difference ranks the pair.
      const raw = first.sum - second.sum;
      const [leader, other] = raw < 0 ? [b, a] : [a, b];
      pairPoints.push({ leader, other, n: first.n, difference: first.n ? percent(Math.abs(raw), first.n) : null });
      requests.push({ kind: "pair", leader, other });
    }
  }
  const intervals = bootstrapIntervals(matrix, requests, { seed, resamples, confidence });

  const models: Record<string, ModelComparison> = keyedRecord();
  labels.forEach((label, model) => {
    const own = passesOver(model, model);
    models[label] = {
      scenarios: own.n,
      pass_rate: own.n ? percent(own.sum, own.n) : null,
      interval: recordedInterval(intervals[model]),
    };
  });
  const pairs: PairComparison[] = pairPoints.map((point, i) => {
    const exact = intervals[labels.length + i];
    return {
      models: [labels[point.leader], labels[point.other]],
      scenarios: point.n,
      difference: point.difference,
      interval: recordedInterval(exact),
      // Judged on the exact bounds: rounded to one decimal, a bound of 0.033 (past ~2,000 shared
      // scenarios) read as 0.0 and the pair as not decisive. roundBound keeps such a bound off
      // 0.0, so the recorded interval still excludes zero exactly when the pair is decisive.
      decisive: exact !== null && (exact[0] > 0 || exact[1] < 0),
    };
  });
  const conclusion = comparisonConclusion({ labels, pairs, confidence });
  return { models, pairs, conclusion, seed, resamples, confidence };
}

function recordedInterval(exact: ComparisonInterval | null): ComparisonInterval | null {
  return exact ? [roundBound(exact[0]), roundBound(exact[1])] : null;
}

function validateSettings(seed: number, resamples: number, confidence: number): void {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`Comparison: seed must be an integer, got ${String(seed)}`);
  // Each interval keeps its resamples in memory to sort them; the cap keeps that bounded.
  if (!Number.isSafeInteger(resamples) || resamples < 1 || resamples > MAX_RESAMPLES) {
    throw new RangeError(`Comparison: resamples must be a positive integer up to ${MAX_RESAMPLES}, got ${String(resamples)}`);
  }
  if (!(typeof confidence === "number" && confidence > 0 && confidence < 1)) {
    throw new RangeError(`Comparison: confidence must be a number between 0 and 1 (exclusive), got ${String(confidence)}`);
  }
  // Each tail of the interval must hold at least one resample, or the percentile ranks clamp to
  // the first and last resample (1 resample gave a 70% pass rate the interval [80, 80]). Rounded
  // as the ranks are (bootstrap.ts): (1 - 0.95) / 2 × 40 is 0.99999999999999989 in floats.
  if (roundHalfAway(((1 - confidence) / 2) * resamples, 9) < 1) {
    const needed = Math.ceil(roundHalfAway(2 / (1 - confidence), 9));
    throw new RangeError(
      `Comparison: resamples × (1 − confidence) / 2 must be at least 1 so each tail of the interval holds a resample; ` +
        `got ${resamples} resamples at confidence ${confidence} (at least ${needed} needed)`,
    );
  }
}

function modelLabels(models: readonly ComparisonModelRef[]): string[] {
  const labels: string[] = [];
  models.forEach((model, i) => {
    const label = typeof model === "string" ? model : model?.label;
    if (typeof label !== "string" || label === "") {
      throw new TypeError(`Comparison: models[${i}] must be a label or an object with a non-empty label`);
    }
    if (!labels.includes(label)) labels.push(label);
  });
  return labels;
}

/**
 * Each model's value per scenario: the share of its results for that scenario that passed
 * (0 or 1 unless a scenario ran twice). Results of models not compared are ignored.
 */
function scenarioMatrix(labels: string[], results: Iterable<ComparableResult>): ScenarioMatrix {
  const modelIndex = new Map(labels.map((label, i) => [label, i]));
  const keyIndex = new Map<string, number>();
  const rows: { model: number; position: number; passed: boolean }[] = [];
  for (const result of results) {
    const model = modelIndex.get(result.label);
    if (model === undefined) continue;
    const key = result.scenario?.key ?? result.scenario_key;
    if (typeof key !== "string") throw new TypeError(`Comparison: a result of ${result.label} names no scenario key`);
    let position = keyIndex.get(key);
    if (position === undefined) {
      position = keyIndex.size;
      keyIndex.set(key, position);
    }
    rows.push({ model, position, passed: result.status === "passed" });
  }
  const width = keyIndex.size;
  // Scenarios are resampled in key order, not in the order the results came in: rows read back
  // from a store (or scored as a fan-out finished them) give the same intervals as the run did.
  const column = new Uint32Array(width);
  [...keyIndex.keys()].sort().forEach((key, sorted) => (column[keyIndex.get(key)!] = sorted));
  const runs = new Uint32Array(labels.length * width);
  const passes = new Uint32Array(labels.length * width);
  for (const row of rows) {
    const cell = row.model * width + column[row.position];
    runs[cell]++;
    if (row.passed) passes[cell]++;
  }
  const values = new Float64Array(runs.length);
  const ran = new Uint8Array(runs.length);
  for (let i = 0; i < runs.length; i++) {
    if (runs[i]) {
      ran[i] = 1;
      values[i] = passes[i] / runs[i];
    }
  }
  return { models: labels.length, width, values, ran };
}
