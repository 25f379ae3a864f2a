// The tries of a run's start whose replay jobs the bus refused (replay jobs are keyed by run: its
// partition may have no leader). Such a run does not hold the dispatch loop: it is tracked as
// `unpublished`, saved so with the checkpoint, and its jobs are tried again beside the loop 1 s
// later, then twice as long each time up to 30 s, until they go out or the run ends; a
// dispatcher that leads next tries them at once. A start refused for ever used to be tried for
// ever, its run RUNNING and nobody told. Its refusals are now counted as the watchdog counts
// re-drives the bus refused, and fail the run alike (watchdog.ts, refusedStartAction): a try
// counts only when the bus took some other publish since this run's previous try, so an outage
// of the whole bus fails no run (a process's first try of a run has nothing to go by and counts
// nothing; a run alone in flight waits until some other publish succeeds). The counts are the
// tracked run's, saved with the checkpoint, so a dispatcher that leads next goes on from them,
// and the stall is timed by the clock from the first counted refusal, not from when a process
// started. With the watchdog off nothing is counted: a start is tried until its jobs go out.
import type { DispatcherOptions } from "./dispatcher.js";
import type { JobPublisher } from "./jobPublisher.js";
import type { TermEnded } from "./redrives.js";
import { pendingPairs, type TrackedRun } from "./trackedRun.js";
import { DEFAULT_MAX_REDRIVES, duration, refusedStartAction, replayJobs, stallMsOf, waitText } from "./watchdog.js";

const DEFAULT_START_RETRY_MS = 1_000;
const DEFAULT_START_RETRY_MAX_MS = 30_000;

interface StartRetryOptions extends Pick<DispatcherOptions, "clock" | "log" | "watchdog" | "startRetryMs" | "startRetryMaxMs"> {
  /** The dispatcher's runs in flight, shared: a run no longer there (it ended) is not tried again. */
  runs: Map<string, TrackedRun>;
  jobs: Pick<JobPublisher, "replays" | "accepted">;
  /** Fails the run as the watchdog does (redrives.ts, `failStalled`). */
  fail(runId: string, run: TrackedRun, message: string, ended: TermEnded): Promise<void>;
  /** The tracked run changed outside the dispatch loop: saved with the next checkpoint. */
  changed(): void;
}

/** This process's side of one run's tries: the next one's timer, the tries this term (the backoff), and the bus's publishes at the last one. */
interface Pending {
  timer?: NodeJS.Timeout;
  tries: number;
  acceptedAt?: number;
}

export class StartRetries {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly options: StartRetryOptions) {}

  /** The start's first try, in the dispatch loop, was refused: the run waits for its start, tried again beside the loop. */
  refused(runId: string, run: TrackedRun, error: Error, ended: TermEnded): void {
    run.unpublished = true;
    run.startTries = 1;
    this.options.runs.set(runId, run);
    const entry: Pending = { tries: 1, acceptedAt: this.options.jobs.accepted };
    this.pending.set(runId, entry);
    this.again(runId, run, entry, error, "none", ended);
  }

  /** A new leadership term: the starts the last one could not publish are tried at once. */
  resume(ended: TermEnded): void {
    for (const [runId, run] of this.options.runs) {
      if (!run.unpublished) continue;
      const entry: Pending = { tries: 0 };
      this.pending.set(runId, entry);
      this.schedule(runId, run, entry, 0, ended);
    }
  }

  /** Drops every pending try: the term ended, or the dispatcher stops. */
  clear(): void {
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }

  private schedule(runId: string, run: TrackedRun, entry: Pending, waitMs: number, ended: TermEnded): void {
    if (!ended()) entry.timer = setTimeout(() => void this.attempt(runId, run, entry, ended), waitMs);
  }

  /**
   * One try: the pairs without a result (all, unless an earlier term's jobs were scored); then the
   * run is tracked as any started run, its stall timed from now. Not tried once the run ended,
   * the term ended, or its jobs went out; one try per run at a time.
   */
  private async attempt(runId: string, run: TrackedRun, entry: Pending, ended: TermEnded): Promise<void> {
    const current = () => !ended() && this.pending.get(runId) === entry && this.options.runs.get(runId) === run && run.unpublished === true;
    if (!current()) return this.forget(runId, entry);
    entry.tries += 1;
    run.startTries = (run.startTries ?? 0) + 1;
    const pairs = pendingPairs(run);
    try {
      await this.options.jobs.replays(runId, run, pairs);
    } catch (error) {
      if (current()) await this.refusedAgain(runId, run, entry, error as Error, ended);
      return;
    }
    if (!current()) return;
    this.forget(runId, entry);
    this.options.log.info(`run ${runId}: ${pairs.length} replay jobs published on try ${run.startTries}`);
    run.unpublished = run.startTries = run.startRefusals = run.startRefusedSince = undefined;
    run.lastProgressAt = this.options.clock.now().getTime();
    this.options.changed(); // a restart does not publish them again as a start
  }

  /** A try refused: counted when the bus took other jobs since the last one, and failing the run once counted enough. */
  private async refusedAgain(runId: string, run: TrackedRun, entry: Pending, error: Error, ended: TermEnded): Promise<void> {
    const evidence = entry.acceptedAt === undefined ? "none" : this.options.jobs.accepted > entry.acceptedAt ? "up" : "down";
    entry.acceptedAt = this.options.jobs.accepted;
    this.options.changed();
    const counted = evidence === "up" && stallMsOf(this.options.watchdog ?? {}) !== null;
    if (counted) {
      const now = this.options.clock.now().getTime();
      run.startRefusals = (run.startRefusals ?? 0) + 1;
      run.startRefusedSince ??= now;
      const action = refusedStartAction(run, now, this.options.watchdog ?? {}, error.message);
      if (action.kind === "fail") await this.options.fail(runId, run, action.message, ended);
      if (this.options.runs.get(runId) !== run) return this.forget(runId, entry); // failed
    }
    this.again(runId, run, entry, error, evidence, ended);
  }

  /**
   * Says why the start's jobs did not go out and whether that counted, and tries them again after
   * the wait. `bus`: whether the bus took other jobs since this run's last try (`none`: no try to
   * go by, a process's first).
   */
  private again(runId: string, run: TrackedRun, entry: Pending, error: Error, bus: "up" | "down" | "none", ended: TermEnded): void {
    const waitMs = this.waitAfter(entry.tries);
    const tries = run.startTries ?? 1;
    const tried = tries > 1 ? `; try ${tries}` : "";
    this.options.log.error(`run ${runId}: its ${replayJobs(run.total)} could not be published (${error.message}${tried})${this.counting(run, bus)}; trying again in ${waitText(waitMs)}, beside the other runs`);
    this.schedule(runId, run, entry, waitMs, ended);
  }

  /** What a refused try did toward failing the run, for its line. */
  private counting(run: TrackedRun, bus: "up" | "down" | "none"): string {
    const stallMs = stallMsOf(this.options.watchdog ?? {});
    if (stallMs === null) return bus === "none" ? " (the watchdog is off: tried until they go out)" : "";
    if (bus === "none") return "";
    if (bus === "down") return "; the job bus took no other jobs since the last try: not counted toward failing the run";
    const max = this.options.watchdog?.maxRedrives ?? DEFAULT_MAX_REDRIVES;
    return ` while the job bus took other jobs: counted as refusal ${run.startRefusals}; the run fails at ${max} or more once the first is ${duration(stallMs)} old`;
  }

  /** The wait after try `tries` of this term: the first wait, doubled each try, up to the longest. */
  private waitAfter(tries: number): number {
    const first = this.options.startRetryMs ?? DEFAULT_START_RETRY_MS;
    return Math.min(first * 2 ** Math.min(Math.max(tries, 1) - 1, 30), this.options.startRetryMaxMs ?? DEFAULT_START_RETRY_MAX_MS);
  }

  private forget(runId: string, entry: Pending): void {
    if (this.pending.get(runId) === entry) this.pending.delete(runId);
  }
}
