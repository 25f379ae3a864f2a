// What the dispatcher remembers of a run still in flight, saved with its checkpoint: the counts
// that decide its completion, and what its watchdog (watchdog.ts, redrives.ts) and the retries
// of a refused start read.
import type { PairSet } from "./pairSet.js";

export interface TrackedRun {
  tenant: string;
  total: number;
  scored: number;
  external: boolean;
  /** Completion was asked for (by the dispatcher for an engine run, by the host for an external one). */
  requested: boolean;
  models: string[];
  scenarios: string[];
  /**
   * When the run last moved, epoch ms: when its jobs were first published, else when its last
   * pair event or completion request was recorded (a restart does not start the stall over).
   */
  lastProgressAt?: number;
  /** Re-drives (RunRedriven in the log) since its last progress, and how many were a restart's. */
  redrives?: number;
  restarts?: number;
  /** When it was last re-driven, epoch ms: the jobs published again get the stall time. */
  lastRedriveAt?: number;
  /**
   * Re-drives since its last progress whose jobs the bus refused while it took other jobs
   * (redrives.ts, `sweep`), and the error of the last one when that was the last try: they
   * count toward failing the run as recorded re-drives do.
   */
  refusals?: number;
  lastRefusal?: string;
  /** Pairs with a result (ResultScored); absent for a run tracked by an older checkpoint. */
  scoredPairs?: PairSet;
  /**
   * Its start's replay jobs have not gone out yet (the bus refused them): the dispatcher tries
   * them again beside its loop (startRetries.ts), and the watchdog leaves the run alone until then.
   */
  unpublished?: boolean;
  /**
   * While unpublished: the tries of its start so far, all refused; of them, those the bus refused
   * while it took other jobs (since its last progress), and when the first of those was, epoch
   * ms. They fail the run as refused re-drives do (startRetries.ts), and survive a restart.
   */
  startTries?: number;
  startRefusals?: number;
  startRefusedSince?: number;
}

/** The run's pairs without a result; every pair when an older checkpoint did not track which. */
export function pendingPairs(run: TrackedRun): number[] {
  return run.scoredPairs?.missing(run.total) ?? Array.from({ length: run.total }, (_, n) => n);
}
