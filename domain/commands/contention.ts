// Lost races on a stream many callers write at once. StartRun and ImportReport all number their
// run on one evaluation stream: a burst of starts there loses races in lockstep, and retrying at
// once with DEFAULT_RETRIES left the later callers refused (4 of 10 concurrent starts, in review).
// Such a command is decided again after a short pause, growing with each loss and jittered so
// the losers spread out, up to CONTENDED_RETRIES times: a stream that keeps moving still ends in
// a conflict, after at most the sum of the pauses (under 1.5 s).
// The jitter is drawn from the command's own id, not from Math.random (the domain takes no
// randomness it was not given): concurrent commands have distinct ids, so distinct pauses.
import { createHash } from "node:crypto";
import { seededRandom } from "../stats/prng.js";

/** Races a contended command may lose and still be decided again. */
export const CONTENDED_RETRIES = 12;
const FIRST_PAUSE_MS = 4;
const MAX_PAUSE_MS = 200;

/** The longest pause after the `lost`th lost race (from 1): doubling from FIRST_PAUSE_MS, capped. */
export function pauseCeilingMs(lost: number): number {
  return Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (lost - 1));
}

/** Pauses after lost races, each a draw in [0, ceiling), the draws seeded by `id`. */
export function contendedPauses(id: string): (lost: number) => Promise<void> {
  const draw = seededRandom(createHash("sha256").update(id, "utf8").digest().readUInt32BE(0));
  return (lost) => new Promise((resolve) => setTimeout(resolve, Math.floor(draw() * pauseCeilingMs(lost))));
}
