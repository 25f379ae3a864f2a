// The percentile bootstrap behind Comparison, written for speed: a request is either one
// model's pass rate over its scenarios or a pair's difference over the scenarios both ran.
// Requests over the same set of scenarios share one "universe" and one stream of resamples,
// so every pair in it draws the same scenario indices for both models (the pairing the guide
// asks for) and the usual case (every model ran every scenario) costs one draw per
// scenario per resample, whatever the number of models and pairs.

import { streamSeed } from "./prng.js";
import { roundHalfAwayFromZero as roundHalfAway } from "../support/index.js";

/** Per-scenario values of every model: `values[m * width + u]`, `ran` says which exist. */
export interface ScenarioMatrix {
  models: number;
  width: number;
  values: Float64Array;
  ran: Uint8Array;
}

export type BootstrapRequest = { kind: "model"; model: number } | { kind: "pair"; leader: number; other: number };

interface BootstrapSettings {
  seed: number;
  resamples: number;
  confidence: number;
}

interface Universe {
  positions: Int32Array;
  requests: { request: BootstrapRequest; slot: number }[];
}

/** Scenario positions a request covers: the model's own, or the pair's shared ones. */
function positionsOf(matrix: ScenarioMatrix, request: BootstrapRequest): Int32Array {
  const { width, ran } = matrix;
  const a = request.kind === "model" ? request.model : request.leader;
  const b = request.kind === "model" ? request.model : request.other;
  const out: number[] = [];
  for (let u = 0; u < width; u++) {
    if (ran[a * width + u] && ran[b * width + u]) out.push(u);
  }
  return Int32Array.from(out);
}

/**
 * Interval bounds (in percent, unrounded) for each request, in request order; null for a
 * request with fewer than two scenarios. Universes are seeded in order of first appearance.
 */
export function bootstrapIntervals(
  matrix: ScenarioMatrix,
  requests: BootstrapRequest[],
  settings: BootstrapSettings,
): ([number, number] | null)[] {
  const results: ([number, number] | null)[] = requests.map(() => null);
  const universes = new Map<string, Universe>();
  requests.forEach((request, slot) => {
    const positions = positionsOf(matrix, request);
    if (positions.length < 2) return;
    const signature = positions.join(",");
    let universe = universes.get(signature);
    if (!universe) {
      universe = { positions, requests: [] };
      universes.set(signature, universe);
    }
    universe.requests.push({ request, slot });
  });
  let stream = 0;
  for (const universe of universes.values()) {
    const samples = resampleUniverse(matrix, universe, streamSeed(settings.seed, stream++), settings.resamples);
    universe.requests.forEach(({ slot }, i) => {
      results[slot] = percentileInterval(samples[i], settings.confidence);
    });
  }
  return results;
}

/** One resampled statistic per request of the universe, in percent, `resamples` values each. */
function resampleUniverse(matrix: ScenarioMatrix, universe: Universe, seed: number, resamples: number): Float64Array[] {
  const { positions, requests } = universe;
  const n = positions.length;
  // The models involved, each a column of the rows below; plan = which columns each request reads.
  const involved: number[] = [];
  const column = (model: number): number => {
    const found = involved.indexOf(model);
    if (found >= 0) return found;
    involved.push(model);
    return involved.length - 1;
  };
  const plan = requests.map(({ request }) =>
    request.kind === "model" ? [column(request.model), -1] : [column(request.leader), column(request.other)],
  );
  const k = involved.length;
  // Scenarios with the same values for every involved model are interchangeable: a resample
  // only needs how many times it drew each distinct row, one increment per draw.
  const { rowOf, rows } = distinctRows(matrix, positions, involved);
  const distinct = rows.length / k;
  const counts = new Int32Array(distinct);
  const sums = new Float64Array(k);
  const samples = requests.map(() => new Float64Array(resamples));
  // mulberry32 (prng.ts), inlined: this loop runs resamples × scenarios times.
  let state = seed >>> 0;
  for (let r = 0; r < resamples; r++) {
    counts.fill(0);
    for (let j = 0; j < n; j++) {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), state | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const draw = (t ^ (t >>> 14)) >>> 0;
      // Exact: draw * n < 2^53, and dividing by 2^32 is exact, so the index is below n.
      counts[rowOf[Math.floor((draw * n) / 4294967296)]]++;
    }
    sums.fill(0);
    for (let d = 0; d < distinct; d++) {
      const times = counts[d];
      if (times === 0) continue;
      for (let c = 0; c < k; c++) sums[c] += times * rows[d * k + c];
    }
    // In percent, multiplied before dividing like the point estimates (comparison.ts): the
    // sums are counts of passes, so a bound at an exact half (51 of 80) rounds as the summary's.
    for (let i = 0; i < plan.length; i++) {
      const [a, b] = plan[i];
      samples[i][r] = b < 0 ? (sums[a] * 100) / n : ((sums[a] - sums[b]) * 100) / n;
    }
  }
  return samples;
}

/** Each scenario's row id, and the distinct rows (values of the involved models) flattened. */
function distinctRows(matrix: ScenarioMatrix, positions: Int32Array, involved: number[]): { rowOf: Int32Array; rows: Float64Array } {
  const k = involved.length;
  const rowOf = new Int32Array(positions.length);
  const ids = new Map<string, number>();
  const rows: number[] = [];
  const row: number[] = new Array(k);
  for (let j = 0; j < positions.length; j++) {
    for (let c = 0; c < k; c++) row[c] = matrix.values[involved[c] * matrix.width + positions[j]];
    const signature = row.join(",");
    let id = ids.get(signature);
    if (id === undefined) {
      id = ids.size;
      ids.set(signature, id);
      rows.push(...row);
    }
    rowOf[j] = id;
  }
  return { rowOf, rows: Float64Array.from(rows) };
}

/** Percentile interval by nearest rank on the sorted resamples (already in percent), unrounded. */
function percentileInterval(samples: Float64Array, confidence: number): [number, number] {
  samples.sort();
  const count = samples.length;
  const tail = (1 - confidence) / 2;
  // Rounded before ceil: (1 - 0.95) / 2 × 5000 is 125.00000000000011 in binary floats.
  const lowerRank = Math.max(1, Math.ceil(roundHalfAway(tail * count, 9)));
  const upperRank = Math.min(count, Math.ceil(roundHalfAway((1 - tail) * count, 9)));
  // `|| 0`: a bound of -0 (a difference of exactly zero) is written as 0.
  return [samples[lowerRank - 1] || 0, samples[upperRank - 1] || 0];
}
