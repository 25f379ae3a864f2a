// The dispatcher's watchdog for runs whose jobs were lost beyond redelivery (a topic reset, an
// offset committed by mistake, a bus that dropped them): a run in flight with no progress (no
// pair recorded or scored, no completion) for `stallMs` gets its jobs again — replay jobs for
// every pair (consumers skip pairs already scored) or its completion job — and after
// `maxRedrives` such re-drives without progress it fails with a reason, instead of staying
// "running" forever. External runs are the host's to drive and are left alone until it asks for
// completion; from then on their completion job is the workers' and is watched like an engine
// run's.
import type { TrackedRun } from "./dispatcher.js";

export interface WatchdogSettings {
  /** No progress for this long re-drives a run (default 10 minutes; null turns the watchdog off). */
  stallMs?: number | null;
  /** Re-drives without progress before the run is failed (default 3). */
  maxRedrives?: number;
}

export const DEFAULT_STALL_MS = 10 * 60_000;
export const DEFAULT_MAX_REDRIVES = 3;

/** The stall time in force: the default when unset, null when the watchdog is off. */
export function stallMsOf(settings: WatchdogSettings): number | null {
  return settings.stallMs === undefined ? DEFAULT_STALL_MS : settings.stallMs;
}

export type WatchdogAction = { kind: "wait" } | { kind: "redrive" } | { kind: "fail"; message: string };

/**
 * What the watchdog does with `run` at `now`. `progressAnywhereAt` is when any run last made
 * progress: a run is failed only when nothing progressed for the stall time. Replay jobs go to
 * one partition per run, so a healthy run can wait for a large one on its partition; it was
 * failed as "lost" though its jobs were only queued (re-drives stay bounded and harmless).
 */
export function watchdogAction(run: TrackedRun, now: number, settings: WatchdogSettings, progressAnywhereAt?: number): WatchdogAction {
  const stallMs = stallMsOf(settings);
  if (stallMs === null || (run.external && !run.requested)) return { kind: "wait" };
  // A run tracked before the watchdog existed (an older checkpoint) starts its clock now.
  if (run.lastProgressAt === undefined) return { kind: "wait" };
  if (now - run.lastProgressAt < stallMs) return { kind: "wait" };
  const redrives = run.redrives ?? 0;
  if (redrives < (settings.maxRedrives ?? DEFAULT_MAX_REDRIVES)) return { kind: "redrive" };
  if (progressAnywhereAt !== undefined && now - progressAnywhereAt < stallMs) return { kind: "wait" }; // the workers are busy, not gone
  const minutes = Math.round(stallMs / 60_000);
  const waited = `${redrives} re-drive${redrives === 1 ? "" : "s"} ${minutes >= 1 ? `${minutes} min` : `${stallMs} ms`} apart`;
  const message = run.requested
    ? `the run's completion did not finish after ${waited}: its completion job was lost or keeps failing`
    : `no result for ${run.total - run.scored} of ${run.total} pairs after ${waited}: their replay jobs were lost or never finish`;
  return { kind: "fail", message };
}
