// The dispatcher (a process manager): reads the ordered log from its own checkpoint and turns
// run events into jobs. RunStarted -> one replay job per scenario x model; each ResultScored is
// counted per run in log order, and after the last one it asks for completion
// (RunCompletionRequested on the run stream) and publishes one completion job.
// External runs get no replay jobs: each pair the host records gets a scoring job instead, and
// their completion job follows the host's request (RunCompletionRequested). Its counts are saved with its position, so after a
// restart it resumes exactly where its counts were; events after the checkpoint are handled
// again and their jobs published again, which the consumers treat as the no-ops they are.
// Jobs published before the checkpoint are published again on a restart, for external runs too:
// once the host has asked, nothing else would ever publish an external run's completion job.
// A watchdog (watchdog.ts) re-drives runs that stop making progress, then fails them. Every
// re-drive, a restart's too, is recorded on the run stream once its jobs were published
// (RunRedriven) and counted from the log, so the count survives a process that dies on one of
// the jobs it publishes, and a bus that cannot be published to fails no run (redrives.ts). Its
// rounds run one at a time, and a round whose leadership term ended records nothing more.
// Leadership comes in terms: one starts when `acquire` grants it and ends when the checkpoint
// store reports it lost (its PostgreSQL session ended). The dispatcher then stands by and leads
// again from its checkpoint, as on any start.
// An event it cannot read is passed over, never retried (it would hold back every run behind it):
// its run is failed with the reason and the line names its stream and position (unreadableEvents.ts).
// Likewise a run whose start's replay jobs the bus refuses (replay jobs are keyed by run: its
// partition may have no leader) does not hold the loop: it is tracked as `unpublished` and its
// jobs are tried again beside the loop until they go out, the run ends, or the bus refused them
// long enough while it took other jobs to fail the run (startRetries.ts). The watchdog and a
// restart's re-drive leave such a run to those tries (its stall is timed from when its jobs went
// out, as for any start).
import {
  handleCommand,
  runAggregate,
  runStream,
  type Clock,
  type DomainEvent,
  type EventStore,
  type IdGenerator,
  type JobBus,
  type LogPosition,
  type RecordedEvent,
  eventRegistry,
  UnreadableEventError,
} from "@verdict/domain";
import type { CheckpointStore } from "./checkpoints/index.js";
import { stallMsOf, sweepEveryMs, type WatchdogSettings } from "./watchdog.js";
import { Redrives, type TermEnded } from "./redrives.js";
import { StartRetries } from "./startRetries.js";
import { PairSet } from "./pairSet.js";
import { jobNames, type JobNames } from "./jobs.js";
import { JobPublisher } from "./jobPublisher.js";
import type { TrackedRun } from "./trackedRun.js";
import type { WorkerLog } from "./workerLog.js";
import { pause } from "./pause.js";
import { linkSignals } from "@verdict/infra/abort";
import { passOverUnreadable, runIdOfStream } from "./unreadableEvents.js";

export interface DispatcherOptions {
  store: EventStore;
  bus: JobBus;
  checkpoints: CheckpointStore;
  clock: Clock;
  ids: IdGenerator;
  log: WorkerLog;
  /** Checkpoint (and leadership) name; one dispatcher per name leads at a time. */
  name?: string;
  actor?: string;
  /** Partition key of replay jobs: the run (DESIGN.md) or the pair (spreads one run over partitions). */
  replayKey?: "run" | "pair";
  /** Save the checkpoint after this many events, or this long after the last save (default 500 / 200 ms). */
  checkpointEvents?: number;
  checkpointMs?: number;
  /** How often a standby retries for leadership (default 2 s). */
  standbyRetryMs?: number;
  names?: JobNames;
  watchdog?: WatchdogSettings;
  /**
   * How long stop() waits for a watchdog round or a refused start's try in flight (default 3 s): one
   * held up by a paused broker (kafkajs retries, 30 s request timeouts) would outlast a SIGTERM's grace.
   */
  stopWaitMs?: number;
  /** The first wait before a refused start's replay jobs are tried again, and the longest (default 1 s / 30 s; doubled each try). */
  startRetryMs?: number;
  startRetryMaxMs?: number;
}

const EVENT_TYPES = ["RunStarted", "ReplayRecorded", "ResultScored", "RunCompletionRequested", "RunRedriven", "RunCompleted", "RunFailed"];
const DEFAULT_STOP_WAIT_MS = 3_000;

export class Dispatcher {
  private readonly runs = new Map<string, TrackedRun>();
  private position: LogPosition | null = null;
  private readonly controller = new AbortController();
  /** The current leadership term, aborted when the lead is lost. */
  private term = new AbortController();
  private loop: Promise<void> | null = null;
  private unsaved = 0;
  private lastSave = 0;
  private saving: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  /** The watchdog's round in flight: one at a time, across terms too. */
  private sweeping: Promise<void> | null = null;
  private leading = false;
  /** True while an event is being handled: its effects and its position are saved together. */
  private busy = false;
  /** Events handled since this dispatcher started (a restart resumes after its checkpoint). */
  handled = 0;
  private settle: () => void = () => undefined;
  /**
   * Settles once the first try to lead is over: leading, with the runs in flight re-driven (or
   * failed), or standing by. startWorker takes jobs only then, so a restart's re-drive is
   * recorded before this process can die on one of the jobs again.
   */
  readonly settled = new Promise<void>((resolve) => (this.settle = resolve));
  readonly name: string;
  private readonly jobs: JobPublisher;
  private readonly redrives: Redrives;
  private readonly starts: StartRetries;

  constructor(private readonly options: DispatcherOptions) {
    this.name = options.name ?? "dispatcher";
    this.jobs = new JobPublisher(options.bus, options.names ?? jobNames(), options.replayKey);
    this.redrives = new Redrives({ ...options, runs: this.runs, jobs: this.jobs, readPosition: () => this.position, accepted: () => this.jobs.accepted });
    const [fail, runEnded] = [this.redrives.failStalled.bind(this.redrives), this.redrives.runEnded.bind(this.redrives)];
    this.starts = new StartRetries({ ...options, runs: this.runs, jobs: this.jobs, fail, runEnded, changed: () => void (this.unsaved += 1) });
  }

  /** Runs in flight, as counted so far (for tests and diagnostics). */
  tracked(runId: string): TrackedRun | undefined {
    return this.runs.get(runId);
  }

  get isLeading(): boolean {
    return this.leading;
  }

  start(): void {
    this.loop ??= this.run().catch((error: unknown) => this.options.log.error(`dispatcher stopped: ${(error as Error).message}`));
  }

  async stop(): Promise<void> {
    this.controller.abort();
    this.settle();
    this.stopTimers();
    await this.loop;
    await this.roundOver();
    // Not leading (never led, or lost it): nothing to save or release.
    if (this.leading) {
      await this.save();
      await this.options.checkpoints.release(this.name);
      this.leading = false;
    }
  }

  /**
   * The watchdog's round and refused starts' tries in flight, waited for so long (stopWaitMs): one
   * cut short sees the stop (its term ended) and records nothing more, whatever its publish does.
   */
  private async roundOver(): Promise<void> {
    const waitMs = this.options.stopWaitMs ?? DEFAULT_STOP_WAIT_MS;
    let timer: NodeJS.Timeout | undefined;
    const over = await Promise.race([
      Promise.all([this.sweeping, this.starts.settled()]).then(
        () => true,
        () => true,
      ),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), waitMs))),
    ]);
    clearTimeout(timer);
    const what = this.sweeping ? "its watchdog round" : "a refused start's try";
    if (!over) this.options.log.info(`dispatcher: stopped without ${what}, still waiting on the job bus or the store after ${waitMs} ms; it records nothing more`);
  }

  /** Stands by until it leads, dispatches until the term ends, and again until stopped. */
  private async run(): Promise<void> {
    const stopped = this.controller.signal;
    while (!stopped.aborted) {
      while (!stopped.aborted && !(await this.lead(stopped).finally(this.settle))) await pause(this.options.standbyRetryMs ?? 2000, stopped);
      if (stopped.aborted) return;
      // linkSignals, not AbortSignal.any: on Node 20 that left an entry on `stopped` per term.
      const term = linkSignals([stopped, this.term.signal]);
      try {
        await this.dispatch(term.signal);
      } finally {
        term.dispose();
      }
      this.stopTimers();
    }
  }

  /** One leadership term: follows the log from the checkpoint until stopped or the lead is lost. */
  private async dispatch(signal: AbortSignal): Promise<void> {
    // Idle periods still get their checkpoint written, never in the middle of an event.
    this.timer = setInterval(() => void (!this.busy && this.unsaved > 0 ? this.save() : undefined), this.options.checkpointMs ?? 200);
    this.startWatchdog();
    while (!signal.aborted) {
      try {
        const events = this.options.store.subscribeAll({ after: this.position ?? undefined, filter: { eventTypes: EVENT_TYPES }, signal });
        for await (const recorded of events) {
          this.busy = true;
          try {
            await this.handle(recorded);
          } finally {
            this.busy = false;
          }
          this.handled += 1;
          this.position = recorded.position;
          this.unsaved += 1;
          if (signal.aborted) return; // a lost lead saves nothing: the next term reloads the checkpoint
          if (this.unsaved >= (this.options.checkpointEvents ?? 500) || Date.now() - this.lastSave >= (this.options.checkpointMs ?? 200)) await this.save();
        }
        // A live subscription ends only when stopped, or when its store was closed under it: then
        // subscribing again ended at once, a loop of promises that held the thread for good.
        if (!signal.aborted) throw new Error("the event store ended its subscription (was it closed?)");
      } catch (error) {
        if (signal.aborted) return;
        this.options.log.error(`dispatcher: ${(error as Error).message}; resuming in 1 s`);
        await pause(1000, signal);
      }
    }
  }

  /**
   * The checkpoint store says the lead is gone (its session ended): this term's dispatching stops
   * and the standby loop takes over. Until the subscription sees the abort, an event may still be
   * dispatched while another process already leads; that duplicate is harmless, as after any
   * restart: consumers skip pairs already recorded, and completion is appended exactly once (by
   * expected version).
   */
  private lostLead(term: AbortController, error: Error): void {
    if (term !== this.term || term.signal.aborted) return;
    this.leading = false;
    term.abort();
    this.stopTimers();
    this.options.log.error(`dispatcher ${this.name} lost its leadership (${error.message}); standing by to lead again`);
  }

  private stopTimers(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.sweeper) clearInterval(this.sweeper);
    this.timer = null;
    this.sweeper = null;
    this.starts.clear();
  }

  /** Takes the lead, loads the checkpoint and re-drives runs in flight; false to try again later. */
  private async lead(signal: AbortSignal): Promise<boolean> {
    try {
      if (!this.leading) {
        const term = new AbortController();
        this.term = term;
        if (!(await this.options.checkpoints.acquire(this.name, (error) => this.lostLead(term, error)))) return false;
        if (term.signal.aborted) return false; // lost as soon as granted
        this.leading = true;
      }
      if (signal.aborted) return true;
      const checkpoint = await this.options.checkpoints.load(this.name);
      this.position = checkpoint?.position ?? null;
      this.unsaved = 0; // a lost term's unsaved counts are dropped with it
      this.runs.clear();
      for (const [id, run] of Object.entries((checkpoint?.state.runs ?? {}) as Record<string, TrackedRun>)) {
        this.runs.set(id, { ...run, scoredPairs: PairSet.fromJSON(run.scoredPairs, run.total) });
      }
      this.redrives.progressAnywhereAt = checkpoint?.state.progressAnywhereAt as number | undefined;
      await this.redrives.afterRestart(this.termEnded(signal));
      // Starts the last term could not publish: tried again from the first wait.
      this.starts.resume(this.termEnded(signal));
      return true;
    } catch (error) {
      this.options.log.error(`dispatcher could not start: ${(error as Error).message}; retrying`);
      return false;
    }
  }

  /**
   * The watchdog's rounds, one at a time: a tick while a round is still in flight (a store or a
   * broker that stopped answering) is skipped. Overlapping rounds each re-drove the same stall.
   */
  private startWatchdog(): void {
    const stallMs = stallMsOf(this.options.watchdog ?? {});
    if (stallMs === null) return;
    this.sweeper = setInterval(() => {
      if (this.sweeping) return;
      void this.sweep().catch((e: unknown) => this.options.log.error(`watchdog: ${(e as Error).message}`));
    }, sweepEveryMs(stallMs));
  }

  /**
   * The watchdog's round, public for tests that do not wait for its timer (redrives.ts); the
   * round in flight, if there is one. It belongs to the current term: once that ends (the lead
   * lost, or stopped), it records nothing more.
   */
  sweep(): Promise<void> {
    this.sweeping ??= this.redrives.sweep(this.termEnded(this.controller.signal)).finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  /** Whether the current leadership term is over (lost, or `signal` aborted), as of now. */
  private termEnded(signal: AbortSignal): TermEnded {
    const term = this.term.signal;
    return () => term.aborted || signal.aborted;
  }

  /** Position and counts together, serialized so saves land in order. */
  private save(): Promise<void> {
    const snapshot = { position: this.position, state: { runs: Object.fromEntries(this.runs), progressAnywhereAt: this.redrives.progressAnywhereAt } };
    const count = this.unsaved;
    this.unsaved = 0;
    this.lastSave = Date.now();
    const state = JSON.parse(JSON.stringify(snapshot.state)) as Record<string, unknown>;
    this.saving = this.saving
      .then(() => this.options.checkpoints.save(this.name, { position: snapshot.position, state }))
      .catch((error: unknown) => {
        this.unsaved += count;
        this.options.log.error(`dispatcher checkpoint not saved: ${(error as Error).message}`);
      });
    return this.saving;
  }

  private async handle(recorded: RecordedEvent): Promise<void> {
    if (!recorded.streamId.startsWith("run-") && !recorded.streamId.startsWith("result-")) return;
    if (recorded.streamId.startsWith("result-")) {
      // A pair's events, one per pair per kind: counted by their stream (result-<run>.<n>), not
      // parsed (they were validated when appended); only an external run's replays are read.
      const runId = recorded.streamId.slice("result-".length, recorded.streamId.lastIndexOf("."));
      const run = this.runs.get(runId);
      if (!run) return; // a run that ended, or one this dispatcher never saw start
      this.redrives.progressed(run, recorded);
      if (recorded.type === "ResultScored") return this.scored(runId, run, recorded);
      if (recorded.type !== "ReplayRecorded" || !run.external) return;
    }
    const event = await this.read(recorded);
    switch (event?.type) {
      case "RunStarted":
        return this.started(event);
      case "ReplayRecorded":
        return this.replayed(event);
      case "RunCompletionRequested":
        return this.completionRequested(recorded);
      case "RunRedriven":
        return this.redrives.redriven(recorded, event.data.cause);
      case "RunCompleted":
      case "RunFailed":
        this.runs.delete(recorded.streamId.slice("run-".length));
        return;
    }
  }

  /** The event, or null when it does not read: then its run is failed and it is passed over (unreadableEvents.ts). */
  private async read(recorded: RecordedEvent): Promise<DomainEvent | null> {
    try {
      return eventRegistry.parseRecorded(recorded);
    } catch (error) {
      if (!(error instanceof UnreadableEventError)) throw error;
      const runId = runIdOfStream(recorded.streamId);
      const tenant = runId === null ? undefined : this.runs.get(runId)?.tenant;
      await passOverUnreadable(this.options, recorded, error, tenant);
      if (runId !== null) this.runs.delete(runId);
      return null;
    }
  }

  private async started(event: Extract<DomainEvent, { type: "RunStarted" }>): Promise<void> {
    const d = event.data;
    // Catching up over an old log: a run that already ended needs nothing.
    const [last] = await this.options.store.readStream(runStream(d.run_id), { direction: "backwards", limit: 1 });
    if (last && (last.type === "RunCompleted" || last.type === "RunFailed")) return;
    const run: TrackedRun = {
      tenant: d.tenant,
      total: d.scenarios.length * d.models.length,
      scored: 0,
      external: d.external,
      requested: false,
      models: d.models.map((m) => m.label),
      scenarios: d.scenarios.map((s) => s.key),
      redrives: 0,
      scoredPairs: PairSet.empty(d.scenarios.length * d.models.length),
    };
    // The host replays an external run's pairs. A start whose jobs the bus refuses is tracked
    // (its pairs' events are counted; the checkpoint keeps it) as unpublished and tried again
    // beside the loop: held here, it kept every run after it in the log waiting.
    if (!run.external) {
      try {
        await this.jobs.replays(d.run_id, run, Array.from({ length: run.total }, (_, n) => n));
      } catch (error) {
        this.starts.refused(d.run_id, run, error as Error, this.termEnded(this.controller.signal));
        return;
      }
    }
    // From when its jobs are published: a dispatcher catching up on an old start publishes them now.
    run.lastProgressAt = this.options.clock.now().getTime();
    this.runs.set(d.run_id, run);
    if (!run.external) this.options.log.info(`run ${d.run_id}: ${run.total} replay jobs published`);
  }

  private async replayed(event: Extract<DomainEvent, { type: "ReplayRecorded" }>): Promise<void> {
    const run = this.runs.get(event.data.run_id);
    if (!run?.external) return; // engine runs are scored by the job that replayed them
    await this.jobs.replays(event.data.run_id, run, [event.data.n]);
  }

  private async scored(runId: string, run: TrackedRun, recorded: RecordedEvent): Promise<void> {
    run.scored += 1;
    run.scoredPairs?.add(Number(recorded.streamId.slice(recorded.streamId.lastIndexOf(".") + 1)));
    if (run.external || run.requested || run.scored < run.total) return;
    // The request is recorded for the audit trail; the job is published here, whether or not
    // this append was the first request (an early request must not leave the run waiting).
    const metadata = recorded.metadata as { correlation_id?: string };
    try {
      await handleCommand(this.options.store, runAggregate, runStream(runId), { type: "RequestRunCompletion", run_id: runId, scored: run.scored }, {
        clock: this.options.clock,
        ids: this.options.ids,
        context: { tenant: run.tenant, actor: this.options.actor ?? "worker:dispatcher", correlationId: metadata.correlation_id, causationId: recorded.id },
      });
      await this.jobs.completion(runId, run.tenant);
    } catch (error) {
      // This event is handled again after the pause: count it once. A request already appended
      // is not appended again (the aggregate takes one), and the job is published then.
      run.scored -= 1;
      throw error;
    }
    run.requested = true;
  }

  /** External runs complete when their host asks; engine runs when their last pair is scored. */
  private async completionRequested(recorded: RecordedEvent): Promise<void> {
    const runId = recorded.streamId.slice("run-".length);
    const run = this.runs.get(runId);
    if (!run) return;
    this.redrives.progressed(run, recorded);
    if (!run.external) return;
    await this.jobs.completion(runId, run.tenant);
    // Saved with the checkpoint: a restart or the watchdog publishes the completion job again.
    run.requested = true;
  }
}
