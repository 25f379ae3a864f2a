// The dispatcher's re-drives: the runs in flight get their outstanding jobs again when a
// dispatcher takes the lead (a bus may have lost them with the previous process) and when the
// watchdog finds them stalled, and a run re-driven enough without progress is failed. What to do
// with each run is decided in watchdog.ts (restartAction, watchdogAction and the failure message);
// this carries it out. Every re-drive is recorded on the run stream (RunRedriven) once its jobs
// were published, and counted back from the log, with each run's progress timed by when it was
// recorded, so the counts survive a process that dies on one of the jobs it publishes (a
// restart's re-drive is recorded before the process takes jobs: startWorker waits for it).
// Publishing first: a re-drive whose publish failed (the broker unreachable) is not recorded,
// so an outage of the bus fails no run; a process that dies between publishing and recording
// leaves an uncounted re-drive, whose jobs are harmless duplicates. A run whose jobs alone the
// bus refuses while it takes others' (their partition without a leader) is counted and failed
// all the same, from memory: see `sweep`.
import { handleCommand, loadAggregate, resultStream, runAggregate, runStream, type LogPosition, type RecordedEvent } from "@verdict/domain";
import { comparePositions } from "@verdict/infra/eventstore";
import type { DispatcherOptions } from "./dispatcher.js";
import { pendingPairs, type TrackedRun } from "./trackedRun.js";
import { DEFAULT_MAX_REDRIVES, notInFuture, restartAction, stallMsOf, sweepEveryMs, triesOf, waitText, watchdogAction } from "./watchdog.js";

type RedriveCause = "restart" | "watchdog";

/** How the dispatcher publishes a run's jobs; a re-drive publishes the same jobs again. */
interface RunJobs {
  replays(runId: string, run: TrackedRun, pairs: readonly number[], took?: { chunks: number }): Promise<void>;
  completion(runId: string, tenant: string): Promise<void>;
}

/**
 * A re-drive's jobs could not be published (the bus unreachable): nothing was recorded, so it
 * does not count toward failing the run.
 */
class JobsNotPublished extends Error {
  constructor(
    readonly runId: string,
    readonly error: Error,
    /** Chunks of the run's own jobs the bus took before it refused the rest: no evidence it is up. */
    readonly ownChunks = 0,
  ) {
    super(`the jobs of run ${runId} could not be published again: ${error.message}`);
  }
}

/** Whether the dispatcher's leadership term ended (lost or stopped): from then on it records nothing. */
export type TermEnded = () => boolean;
const never: TermEnded = () => false;

interface RedriveOptions extends Pick<DispatcherOptions, "store" | "clock" | "ids" | "log" | "actor" | "watchdog"> {
  /** The dispatcher's runs in flight, shared: a run failed here is no longer tracked there. */
  runs: Map<string, TrackedRun>;
  jobs: RunJobs;
  /** Where the dispatcher has read the log to (null: nothing read yet). */
  readPosition: () => LogPosition | null;
  /** How many publishes of the dispatcher's jobs the bus took so far: whether it is up (`sweep`). */
  accepted: () => number;
}

export class Redrives {
  /** When any run last made progress (the watchdog fails no run while the workers are busy). */
  progressAnywhereAt: number | undefined;

  constructor(private readonly options: RedriveOptions) {}

  /**
   * Runs in flight at the checkpoint get their jobs again: a bus that lost its jobs with the
   * previous process (the in-memory bus) must not leave them waiting forever. Consumers treat
   * jobs for pairs already scored, or (external runs) not recorded yet, as no-ops. An external
   * run the host asked to complete gets its completion job: the host's retry appends nothing,
   * so nothing else would publish it again. Each is a re-drive (restartAction): a run re-driven
   * enough without progress gets no more jobs, and is failed once stalled. The counts are the
   * checkpoint's; re-drives recorded after it are counted as the log is followed again.
   */
  async afterRestart(ended: TermEnded = never): Promise<void> {
    const now = this.options.clock.now().getTime();
    this.progressAnywhereNotAfter(now);
    for (const [runId, run] of [...this.options.runs]) {
      if (ended()) return;
      // Its start's jobs never went out: the dispatcher tries them (startRetries.ts), not as a re-drive.
      if (run.unpublished) continue;
      if (run.external && !run.requested) run.requested = await this.completionAsked(runId);
      notInFuture(run, now);
      const action = restartAction(run, now, this.options.watchdog ?? {}, this.progressAnywhereAt);
      if (action.kind === "fail") await this.failStalled(runId, run, action.message, ended);
      else if (action.kind === "redrive") await this.publishAgain(runId, run, "restart", ended);
      else this.options.log.info(`run ${runId}: jobs not published again after a restart: re-driven ${run.redrives} times without progress`);
    }
  }

  /**
   * The watchdog's round (see watchdog.ts): re-drives stalled runs, fails those re-driven enough.
   * Every stalled run is tried, in every round: a publish failing for one run says nothing of the
   * next one's (replay jobs are keyed by run, so one run's partition may have no leader while
   * the others' take jobs). A run whose jobs were refused is counted only on evidence that the
   * bus itself is up, as the round ends:
   * - some publish of this dispatcher succeeded while the round ran (another run's re-drive, a
   *   start's or a completion's jobs): only the refused runs' jobs are refused. Each refused run
   *   is counted as re-driven (`refusals`, toward the same maxRedrives as RunRedriven) and waits
   *   a stall time before its next try, so after as many stall periods as a re-driven run it is
   *   failed saying its jobs could not be published, with the last error; it is not stranded;
   * - no publish succeeded (a broker stopped, or paused): nothing is counted and the runs are
   *   tried again next round, so an outage of the whole bus fails no run. The round logs one
   *   line saying so. A run alone in flight whose partition has no leader waits, so, until some
   *   other publish succeeds.
   * A round whose term ended records nothing more, and counts nothing.
   */
  async sweep(ended: TermEnded = never): Promise<void> {
    const now = this.options.clock.now().getTime();
    const acceptedBefore = this.options.accepted();
    this.progressAnywhereNotAfter(now);
    const refused: JobsNotPublished[] = [];
    try {
      for (const [runId, run] of [...this.options.runs]) {
        if (ended()) return;
        notInFuture(run, now);
        const action = watchdogAction(run, now, this.options.watchdog ?? {}, this.progressAnywhereAt);
        if (action.kind === "redrive") {
          try {
            await this.publishAgain(runId, run, "watchdog", ended);
          } catch (error) {
            if (!(error instanceof JobsNotPublished)) throw error;
            refused.push(error);
          }
        } else if (action.kind === "fail") {
          await this.failStalled(runId, run, action.message, ended);
        }
      }
    } finally {
      if (refused.length > 0 && !ended()) {
        // The refused runs' own chunks that went out (a run of more than one chunk refused part
        // way) are no sign that the bus takes other jobs.
        const own = refused.reduce((sum, refusal) => sum + refusal.ownChunks, 0);
        if (this.options.accepted() - own > acceptedBefore) for (const refusal of refused) this.refusedAlone(refusal);
        else this.options.log.error(this.unpublishedLine(refused.map((r) => r.runId), refused[refused.length - 1].error));
      }
    }
  }

  /** A re-drive whose jobs the bus refused while it took others': counted, the run waits a stall time. */
  private refusedAlone({ runId, error }: JobsNotPublished): void {
    const run = this.options.runs.get(runId);
    if (!run) return; // it ended meanwhile
    run.refusals = (run.refusals ?? 0) + 1;
    run.lastRefusal = error.message;
    run.lastRedriveAt = this.options.clock.now().getTime();
    const max = this.options.watchdog?.maxRedrives ?? DEFAULT_MAX_REDRIVES;
    this.options.log.error(
      `watchdog: the job bus refused the jobs of run ${runId} while it took other jobs (${error.message}): counted as re-drive ${triesOf(run)} of ${max} without progress; trying again in ${waitText(stallMsOf(this.options.watchdog ?? {}) ?? 0)}`,
    );
  }

  private unpublishedLine(runIds: string[], error: Error): string {
    const runs = runIds.length === 1 ? `run ${runIds[0]}` : `runs ${runIds.slice(0, 3).join(", ")}${runIds.length > 3 ? ` and ${runIds.length - 3} more` : ""}`;
    const again = waitText(sweepEveryMs(stallMsOf(this.options.watchdog ?? {}) ?? 0));
    return `watchdog: cannot publish jobs, the job bus (broker) is unreachable (${error.message}): ${runs} not re-driven, which does not count toward failing ${runIds.length === 1 ? "it" : "them"}; trying again in ${again}`;
  }

  /** Progress as recorded: the same after a restart, which reads the event again. */
  progressed(run: TrackedRun, recorded: RecordedEvent): void {
    run.lastProgressAt = this.recordedAt(recorded);
    run.redrives = 0;
    run.restarts = 0;
    run.refusals = 0;
    run.lastRefusal = undefined;
    run.lastRedriveAt = undefined;
    // A start still waiting for its jobs whose pairs move (an earlier term's jobs went out after all): its count starts over too.
    run.startRefusals = undefined;
    run.startRefusedSince = undefined;
    this.progressAnywhereAt = Math.max(this.progressAnywhereAt ?? -Infinity, run.lastProgressAt);
  }

  /** A re-drive, counted from the log: the count outlives the process that published the jobs. */
  redriven(recorded: RecordedEvent, cause: RedriveCause): void {
    const run = this.options.runs.get(recorded.streamId.slice("run-".length));
    if (!run) return;
    run.redrives = (run.redrives ?? 0) + 1;
    if (cause === "restart") run.restarts = (run.restarts ?? 0) + 1;
    run.lastRedriveAt = this.recordedAt(recorded);
  }

  /**
   * Whether the run stream records a completion request. A checkpoint saved before external
   * runs' requests were tracked says `requested: false` for a run stuck after its request.
   */
  private async completionAsked(runId: string): Promise<boolean> {
    return (await loadAggregate(this.options.store, runAggregate, runStream(runId))).state.completionRequested;
  }

  /**
   * A run's outstanding jobs once more: its completion job if asked for, else the replay jobs of
   * pairs without a result; a run that ended meanwhile gets nothing. Recorded (RunRedriven) once
   * published, so only a re-drive that reached the bus counts; one that did not throws
   * JobsNotPublished and records nothing. A restart's is recorded before this process takes any
   * job (startWorker waits for the dispatcher), so a process dying on one of them still counts it.
   */
  private async publishAgain(runId: string, run: TrackedRun, cause: RedriveCause, ended: TermEnded): Promise<void> {
    if (await this.runEnded(runId)) return;
    const pending = run.requested ? [] : pendingPairs(run);
    const took = { chunks: 0 };
    try {
      if (run.requested) await this.options.jobs.completion(runId, run.tenant);
      else await this.options.jobs.replays(runId, run, pending, took);
    } catch (error) {
      throw new JobsNotPublished(runId, error as Error, took.chunks);
    }
    // The jobs published get the stall time, recorded or not; counted when the log brings RunRedriven back.
    run.lastRefusal = undefined;
    run.lastRedriveAt = this.options.clock.now().getTime();
    const what = run.requested ? "completion job" : `${pending.length} replay jobs`;
    if (ended()) {
      this.options.log.info(`run ${runId}: ${what} published again, not recorded as a re-drive: this dispatcher no longer leads`);
      return;
    }
    if (!(await this.recordRedrive(runId, run, cause, pending.length))) return;
    const why = cause === "restart" ? "after a restart" : `by the watchdog (no progress; re-drive ${(run.redrives ?? 0) + 1})`;
    // A restart's counts are the checkpoint's: pairs scored after it were counted as pending (their jobs are no-ops).
    const scored = cause === "restart" ? `${run.scored} scored at the dispatcher's checkpoint` : `${run.scored} already scored`;
    this.options.log.info(`run ${runId}: ${what} published again ${why}${run.requested ? "" : ` (${scored})`}`);
  }

  /** Whether the run's stream ends with its end (RunCompleted or RunFailed). */
  async runEnded(runId: string): Promise<boolean> {
    const [last] = await this.options.store.readStream(runStream(runId), { from: "end", direction: "backwards", limit: 1 });
    return last !== undefined && (last.type === "RunCompleted" || last.type === "RunFailed");
  }

  /** Appends RunRedriven; false when the run already ended (nothing to publish). */
  private async recordRedrive(runId: string, run: TrackedRun, cause: RedriveCause, pending: number): Promise<boolean> {
    const handled = await handleCommand(
      this.options.store,
      runAggregate,
      runStream(runId),
      { type: "RecordRedrive", run_id: runId, cause, jobs: run.requested ? "completion" : "replay", pending },
      this.commandContext(run),
    );
    return handled.events.length > 0;
  }

  /**
   * Fails the run with `message` (FailRun), unless it moved beyond what this dispatcher has read;
   * a refused start's retries fail theirs so too (startRetries.ts). A store failing meanwhile
   * fails nothing, logged: the next round (or try) decides again, and the round goes on with the
   * other runs (or a restart's re-drives with theirs).
   */
  async failStalled(runId: string, run: TrackedRun, message: string, ended: TermEnded): Promise<void> {
    try {
      if (await this.movedSinceTracked(runId, run)) {
        this.options.log.info(`run ${runId}: not failed by the watchdog: it progressed after what this dispatcher has read of the log so far`);
        return;
      }
      if (ended()) return; // no longer leading: the next leader decides
      await handleCommand(this.options.store, runAggregate, runStream(runId), { type: "FailRun", run_id: runId, message }, this.commandContext(run));
      this.options.log.error(`run ${runId} failed by the watchdog: ${message}`);
      this.options.runs.delete(runId);
    } catch (error) {
      // It ended meanwhile (its end event untracks it), or the store failed: the next round retries.
      this.options.log.info(`run ${runId}: not failed by the watchdog (${(error as Error).message})`);
    }
  }

  /**
   * Whether the log holds progress the tracked run does not show yet: an event on a pair without
   * a result past where the dispatcher has read, or a completion request. Asked before any
   * failure, because the tracked run may be behind the log: a dispatcher taking the lead decides
   * from its checkpoint before it reads on, and the watchdog's rounds run while it catches up, so
   * a run whose pairs were all scored while no dispatcher led was failed as stalled. By log
   * position, not recorded time: times are not in log order (a replay recorded after a failed
   * scoring keeps its earlier time; hosts' clocks differ), and a run whose pair carried an earlier
   * time than the last one read was never failed. Only a run about to fail pays these reads (one
   * event per pair without a result).
   */
  private async movedSinceTracked(runId: string, run: TrackedRun): Promise<boolean> {
    if (!run.requested && (await this.completionAsked(runId))) return true;
    const read = this.options.readPosition();
    const pending = pendingPairs(run);
    for (const n of pending) {
      const [last] = await this.options.store.readStream(resultStream(runId, n), { from: "end", direction: "backwards", limit: 1 });
      if (last !== undefined && (read === null || comparePositions(last.position, read) > 0)) return true;
    }
    return false;
  }

  /** Commands on a run's stream come from the dispatcher, in the run's tenant. */
  private commandContext(run: TrackedRun) {
    return { clock: this.options.clock, ids: this.options.ids, context: { tenant: run.tenant, actor: this.options.actor ?? "worker:dispatcher" } };
  }

  /**
   * When the event was recorded (epoch ms); this dispatcher's clock for one without the time, or
   * recorded "later" than that clock reads (the writer's clock ahead): timed from when it was read.
   */
  private recordedAt(recorded: RecordedEvent): number {
    const at = Date.parse((recorded.metadata as { recorded_at?: string }).recorded_at ?? "");
    const now = this.options.clock.now().getTime();
    return Number.isNaN(at) ? now : Math.min(at, now);
  }

  /** As notInFuture for each run: progress anywhere seen before this clock was set back counts from now. */
  private progressAnywhereNotAfter(now: number): void {
    if (this.progressAnywhereAt !== undefined && this.progressAnywhereAt > now) this.progressAnywhereAt = now;
  }
}
