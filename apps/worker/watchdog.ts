// The dispatcher's watchdog for runs whose jobs were lost beyond redelivery (a topic reset, an
// offset committed by mistake, a bus that dropped them): a run in flight with no progress (no
// pair recorded or scored, no completion) for `stallMs` gets its jobs again — replay jobs for
// every pair without a result, or its completion job — and after
// `maxRedrives` such re-drives without progress it fails with a reason, instead of staying
// "running" forever. External runs are the host's to drive and are left alone until it asks for
// completion; from then on their completion job is the workers' and is watched like an engine
// run's. Re-drives are counted from RunRedriven events, recorded once their jobs were published
// (a re-drive that could not publish, the broker being down, counts for nothing), and progress
// is timed by when it was recorded, so a dispatcher that restarts (a worker process dying on one of its run's jobs)
// counts the re-drive of each restart and does not start the stall over.
import { pairName } from "@verdict/domain";
import type { TrackedRun } from "./trackedRun.js";

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

/** How often the watchdog's rounds run for a stall time: half of it, between 10 ms and a minute. */
export function sweepEveryMs(stallMs: number): number {
  return Math.max(10, Math.min(60_000, Math.floor(stallMs / 2)));
}

type WatchdogAction = { kind: "wait" } | { kind: "redrive" } | { kind: "fail"; message: string };

/** Pairs a failure names; the rest are counted. */
const NAMED_PAIRS = 10;

/**
 * What the watchdog does with `run` at `now`. `progressAnywhereAt` is when any run last made
 * progress: a run is failed only when nothing progressed for the stall time. Replay jobs go to
 * one partition per run, so a healthy run can wait for a large one on its partition; it was
 * failed as "lost" though its jobs were only queued (re-drives stay bounded and harmless).
 */
export function watchdogAction(run: TrackedRun, now: number, settings: WatchdogSettings, progressAnywhereAt?: number): WatchdogAction {
  const stallMs = stallMsOf(settings);
  // A start whose jobs the bus refused is the dispatcher's to try again (dispatcher.ts, retryStart).
  if (stallMs === null || (run.external && !run.requested) || run.unpublished) return { kind: "wait" };
  // A run tracked before the watchdog existed (an older checkpoint) starts its clock now.
  if (run.lastProgressAt === undefined) return { kind: "wait" };
  // A re-drive gives the jobs published again the stall time to show progress.
  if (now - Math.max(run.lastProgressAt, run.lastRedriveAt ?? -Infinity) < stallMs) return { kind: "wait" };
  if (triesOf(run) < (settings.maxRedrives ?? DEFAULT_MAX_REDRIVES)) return { kind: "redrive" };
  // Jobs the bus refused are queued nowhere: other runs' progress does not mean they wait their turn.
  if (run.lastRefusal !== undefined) return { kind: "fail", message: unpublishableMessage(run, stallMs) };
  if (progressAnywhereAt !== undefined && now - progressAnywhereAt < stallMs) return { kind: "wait" }; // the workers are busy, not gone
  return { kind: "fail", message: stalledMessage(run, run.redrives ?? 0, stallMs) };
}

/**
 * Re-drives without progress that count toward failing the run: those recorded (RunRedriven),
 * and those whose jobs the bus refused while it took other jobs (redrives.ts, `sweep`).
 */
export function triesOf(run: TrackedRun): number {
  return (run.redrives ?? 0) + (run.refusals ?? 0);
}

/**
 * What a dispatcher taking the lead does with a run in flight: its jobs are published again (a
 * bus that lost them must not strand it), which is a re-drive, unless the run was re-driven
 * enough without progress: then it is failed once stalled, and otherwise left to the watchdog
 * with no more jobs. A worker dying on one of the run's jobs restarts into the same job; had each
 * restart published the jobs again, as it did, the run was fed to it for ever.
 */
export function restartAction(run: TrackedRun, now: number, settings: WatchdogSettings, progressAnywhereAt?: number): WatchdogAction {
  const action = watchdogAction(run, now, settings, progressAnywhereAt);
  if (action.kind === "fail") return action;
  const counting = stallMsOf(settings) !== null && !(run.external && !run.requested);
  return counting && triesOf(run) >= (settings.maxRedrives ?? DEFAULT_MAX_REDRIVES) ? { kind: "wait" } : { kind: "redrive" };
}

/** A run whose last re-drive the bus refused while it took other jobs: its jobs never went out. */
function unpublishableMessage(run: TrackedRun, stallMs: number): string {
  const refusals = run.refusals ?? 0;
  const jobs = run.requested ? "completion job" : `${run.total - run.scored} replay job${run.total - run.scored === 1 ? "" : "s"}`;
  const published = run.redrives ? ` (${run.redrives} other re-drive${run.redrives === 1 ? "" : "s"} went out)` : "";
  return `its ${jobs} could not be published: the job bus refused ${run.requested ? "it" : "them"} ${refusals === 1 ? "once" : `${refusals} times, ${apart(stallMs)} apart,`} while it took other jobs (the partition they go to may have no leader)${published}; last error: ${run.lastRefusal}`;
}

function apart(stallMs: number): string {
  const minutes = Math.round(stallMs / 60_000);
  return minutes >= 1 ? `${minutes} min` : `${stallMs} ms`;
}

function stalledMessage(run: TrackedRun, redrives: number, stallMs: number): string {
  const restarts = run.restarts ?? 0;
  const refused = run.refusals ? ` (and ${run.refusals} the job bus refused)` : "";
  const waited = restarts
    ? `${redrives} re-drive${redrives === 1 ? "" : "s"} without progress${refused}, ${restarts} of them after a restart (a worker may be crashing on one of these pairs)`
    : `${redrives} re-drive${redrives === 1 ? "" : "s"} ${apart(stallMs)} apart${refused}`;
  if (run.requested) return `the run's completion did not finish after ${waited}: its completion job was lost or keeps failing`;
  return `no result for ${run.total - run.scored} of ${run.total} pairs${pendingNames(run)} after ${waited}: their replay jobs were lost or never finish`;
}

/** " (a × m, b × m, and 3 more)": the pairs without a result, when the dispatcher knows which. */
function pendingNames(run: TrackedRun): string {
  if (!run.scoredPairs) return "";
  const pending = run.scoredPairs.missing(run.total);
  const m = run.models.length;
  const names = pending.slice(0, NAMED_PAIRS).map((n) => pairName(run.scenarios[Math.floor(n / m)], run.models[n % m]));
  const more = pending.length - names.length;
  return ` (${names.join(", ")}${more > 0 ? `, and ${more} more` : ""})`;
}
