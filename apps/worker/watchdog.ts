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

/**
 * Times after `now` become `now`: a progress or re-drive recorded by a process whose clock ran
 * ahead, or by this one before its clock was set back (NTP, a VM resumed), is timed from when the
 * watchdog saw it. Left in the future, it postponed the stall by the clock's error (an hour's
 * error, an hour more before a lost run was re-driven).
 */
export function notInFuture(run: TrackedRun, now: number): void {
  if (run.lastProgressAt !== undefined && run.lastProgressAt > now) run.lastProgressAt = now;
  if (run.lastRedriveAt !== undefined && run.lastRedriveAt > now) run.lastRedriveAt = now;
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
  // A start whose jobs the bus refused is the dispatcher's to try again (startRetries.ts).
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

/**
 * What becomes of a run whose start's replay jobs the bus refused once more (startRetries.ts): it
 * is failed as a run whose re-drives the bus refused is, once the bus refused them `maxRedrives`
 * times while it took other jobs and the first of those is a stall time old; until then it is
 * tried again. Tries while no publish succeeded at all (the whole bus down) are not counted, so an
 * outage fails no run; with the watchdog off, the run is tried until its jobs go out.
 */
export function refusedStartAction(run: TrackedRun, now: number, settings: WatchdogSettings, lastError: string): WatchdogAction {
  const stallMs = stallMsOf(settings);
  const refusals = run.startRefusals ?? 0;
  const since = run.startRefusedSince;
  if (stallMs === null || since === undefined || refusals < (settings.maxRedrives ?? DEFAULT_MAX_REDRIVES) || now - since < stallMs) return { kind: "wait" };
  const tries = run.startTries ?? refusals;
  return { kind: "fail", message: refusedMessage(run, `${refusals} times in ${duration(now - since)}`, ` (${tries} tr${tries === 1 ? "y" : "ies"} since the run started, none went out)`, lastError) };
}

/** A run whose last re-drive the bus refused while it took other jobs: its jobs never went out. */
function unpublishableMessage(run: TrackedRun, stallMs: number): string {
  const refusals = run.refusals ?? 0;
  const published = run.redrives ? ` (${run.redrives} other re-drive${run.redrives === 1 ? "" : "s"} went out)` : "";
  return refusedMessage(run, refusals === 1 ? "once" : `${refusals} times, ${duration(stallMs)} apart,`, published, run.lastRefusal ?? "");
}

/** Jobs the bus refused while it took other jobs, re-driven or a start's: `times` how often, `note` after the cause. */
function refusedMessage(run: TrackedRun, times: string, note: string, lastError: string): string {
  const jobs = run.requested ? "completion job" : replayJobs(run.total - run.scored);
  return `its ${jobs} could not be published: the job bus refused ${run.requested ? "it" : "them"} ${times} while it took other jobs (the partition they go to may have no leader)${note}; last error: ${busError(lastError)}`;
}

const BUS_ERROR_CHARS = 500;

/**
 * The bus's error as a failure's message may hold it: RunFailed refuses a NUL or an unpaired
 * surrogate, and a broker's error is any text (a run whose error held one was never failed, its
 * FailRun refused at every try). Control characters become spaces, unpaired surrogates U+FFFD,
 * and it is cut to 500 characters.
 */
function busError(message: string): string {
  const cut = message.length > BUS_ERROR_CHARS ? `${message.slice(0, BUS_ERROR_CHARS)}…` : message;
  // eslint-disable-next-line no-control-regex -- control characters are what it removes
  return cut.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

/** "6 replay jobs", "1 replay job". */
export function replayJobs(count: number): string {
  return `${count} replay job${count === 1 ? "" : "s"}`;
}

/** A stall time or a span in a failure: whole minutes, or ms under one. */
export function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes >= 1 ? `${minutes} min` : `${ms} ms`;
}

/** A wait in a log line: ms under a second, else seconds. */
export function waitText(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

function stalledMessage(run: TrackedRun, redrives: number, stallMs: number): string {
  const restarts = run.restarts ?? 0;
  const refused = run.refusals ? ` (and ${run.refusals} the job bus refused)` : "";
  const waited = restarts
    ? `${redrives} re-drive${redrives === 1 ? "" : "s"} without progress${refused}, ${restarts} of them after a restart (a worker may be crashing on one of these pairs)`
    : `${redrives} re-drive${redrives === 1 ? "" : "s"} ${duration(stallMs)} apart${refused}`;
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
