// The tries of a run's start whose replay jobs the bus refused (replay jobs are keyed by run: its
// partition may have no leader). Such a run does not hold the dispatch loop: it is tracked as
// `unpublished`, saved so with the checkpoint, and its jobs are tried again beside the loop 1 s
// later, then twice as long each time up to 30 s, until they go out or the run ends; a
// dispatcher that leads next tries them at once. A start refused for ever used to be tried for
// ever, its run RUNNING and nobody told. Its refusals are now counted as the watchdog counts
// re-drives the bus refused, and fail the run alike (watchdog.ts, refusedStartAction): a try
// counts only when the bus took some other publish since this run's previous try, so an outage
// of the whole bus fails no run (a process's first try of a run has nothing to go by and counts
// nothing; a run alone in flight waits until some other publish succeeds: the chunks of its own
// jobs a try got out are not other publishes). A try that counts nothing changes nothing saved.
// The counts are the tracked run's, saved with the checkpoint, so a dispatcher that leads next
// goes on from them, and the stall is timed by the clock from the first counted refusal, not
// from when a process started. A store failing as the run is failed fails nothing: logged, the
// run is tried (and counted) on. A stopping dispatcher waits a while for a try in flight. With
// the watchdog off nothing is counted: a start is tried until its jobs go out.
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
  /** Whether the run's stream ends with its end: a term's first try of a run asks (its checkpoint may be behind the log). */
  runEnded(runId: string): Promise<boolean>;
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
  /** Tries in flight: a stopping dispatcher waits for them (`settled`). */
  private readonly trying = new Set<Promise<void>>();

  constructor(private readonly options: StartRetryOptions) {}

  /** The start's first try, in the dispatch loop, was refused: the run waits for its start, tried again beside the loop. */
  refused(runId: string, run: TrackedRun, error: Error, ended: TermEnded): void {
    run.unpublished = true;
    run.startTries = 1;
    this.options.runs.set(runId, run);
    const entry: Pending = { tries: 1, acceptedAt: this.options.jobs.accepted };
    if (!ended()) this.pending.set(runId, entry); // else the next leader tries it, from the checkpoint
    this.again(runId, run, entry, run.total, error, "none", ended);
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

  /** Settles once the tries in flight are over (they change nothing once the term ended). */
  async settled(): Promise<void> {
    await Promise.all(this.trying);
  }

  /** A failure no try expected (the store, reading whether the run ended) is logged, and the run tried again after the wait. */
  private schedule(runId: string, run: TrackedRun, entry: Pending, waitMs: number, ended: TermEnded): void {
    if (ended()) return;
    entry.timer = setTimeout(() => {
      const tried = this.attempt(runId, run, entry, ended).catch((error: unknown) => {
        this.options.log.error(`run ${runId}: its start's try failed (${(error as Error).message}); trying again in ${waitText(this.waitAfter(entry.tries))}`);
        if (this.pending.get(runId) === entry) this.schedule(runId, run, entry, this.waitAfter(entry.tries), ended);
      });
      this.trying.add(tried);
      void tried.finally(() => this.trying.delete(tried));
    }, waitMs);
  }

  /**
   * One try: the pairs without a result (all, unless an earlier term's jobs were scored); then the
   * run is tracked as any started run, its stall timed from now. Not tried once the run ended,
   * the term ended, or its jobs went out; one try per run at a time.
   */
  private async attempt(runId: string, run: TrackedRun, entry: Pending, ended: TermEnded): Promise<void> {
    const current = () => !ended() && this.pending.get(runId) === entry && this.options.runs.get(runId) === run && run.unpublished === true;
    if (!current()) return this.forget(runId, entry);
    // A term's first try: the checkpoint may be behind the log, the run ended after it was saved.
    if (entry.tries === 0 && (await this.options.runEnded(runId))) return this.forget(runId, entry);
    if (!current()) return this.forget(runId, entry);
    entry.tries += 1;
    run.startTries = (run.startTries ?? 0) + 1;
    const pairs = pendingPairs(run);
    const own = { chunks: 0 };
    try {
      await this.options.jobs.replays(runId, run, pairs, own);
    } catch (error) {
      if (!current()) return this.forget(runId, entry);
      return this.refusedAgain(runId, run, entry, pairs.length, error as Error, own.chunks, ended);
    }
    if (!current()) return this.forget(runId, entry);
    this.forget(runId, entry);
    this.options.log.info(`run ${runId}: ${pairs.length} replay jobs published on try ${run.startTries}`);
    run.unpublished = run.startTries = run.startRefusals = run.startRefusedSince = undefined;
    run.lastProgressAt = this.options.clock.now().getTime();
    this.options.changed(); // a restart does not publish them again as a start
  }

  /**
   * A try refused: counted when the bus took other jobs since the last one (not the `own` chunks
   * of this run this try got out), and failing the run once counted enough. A try that counts
   * nothing is not saved: its tries (in the failure's wording only) go with the next checkpoint.
   */
  private async refusedAgain(runId: string, run: TrackedRun, entry: Pending, jobs: number, error: Error, own: number, ended: TermEnded): Promise<void> {
    const accepted = this.options.jobs.accepted;
    const evidence = entry.acceptedAt === undefined ? "none" : accepted - own > entry.acceptedAt ? "up" : "down";
    entry.acceptedAt = accepted;
    if (evidence === "up" && stallMsOf(this.options.watchdog ?? {}) !== null) {
      const now = this.options.clock.now().getTime();
      run.startRefusals = (run.startRefusals ?? 0) + 1;
      // A clock set back does not put the first refusal in the future, where it failed nothing for as long.
      run.startRefusedSince = Math.min(run.startRefusedSince ?? now, now);
      this.options.changed();
      const action = refusedStartAction(run, now, this.options.watchdog ?? {}, error.message);
      try {
        if (action.kind === "fail") await this.options.fail(runId, run, action.message, ended);
      } catch (failure) {
        // The store failed: the run is tried again, and failed at a later count.
        this.options.log.info(`run ${runId}: not failed by the watchdog (${(failure as Error).message})`);
      }
      if (this.options.runs.get(runId) !== run) return this.forget(runId, entry); // failed
    }
    this.again(runId, run, entry, jobs, error, evidence, ended);
  }

  /**
   * Says why the start's jobs did not go out and whether that counted, and tries them again after
   * the wait. `bus`: whether the bus took other jobs since this run's last try (`none`: no try to
   * go by, a process's first).
   */
  private again(runId: string, run: TrackedRun, entry: Pending, jobs: number, error: Error, bus: "up" | "down" | "none", ended: TermEnded): void {
    const waitMs = this.waitAfter(entry.tries);
    const tries = run.startTries ?? 1;
    const tried = tries > 1 ? `; try ${tries}` : "";
    const next = ended() ? "this dispatcher no longer leads: the next one tries them" : `trying again in ${waitText(waitMs)}, beside the other runs`;
    this.options.log.error(`run ${runId}: its ${replayJobs(jobs)} could not be published (${error.message}${tried})${this.counting(run, bus)}; ${next}`);
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
