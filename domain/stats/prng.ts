// A seeded PRNG of our own (mulberry32): 32-bit integer arithmetic only (Math.imul, >>>),
// so the same seed draws the same sequence on every platform and Node version,
// which is what lets a recorded comparison's seed reproduce its intervals.

/** Returns a generator of uniform 32-bit unsigned integers for `seed`. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Uniform floats in [0, 1) from the same generator (fuzz tests draw their cases with it). */
export function seededRandom(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

/** Derives the seed of the `stream`th independent sequence from a base seed. */
export function streamSeed(seed: number, stream: number): number {
  let h = (seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}
