// A run as a worker needs it: the frozen selection from RunStarted (scenarios as evaluated,
// models, criteria, threshold, tool roster), the run's folded state, and one Runner that scores
// its pairs exactly as the library does. Loaded once per run and cached; before each use the
// stream's version is checked, so a run that ended is seen as ended. Replay jobs accept a check
// up to `maxAgeMs` old, and concurrent callers share one check: at a thousand pairs a second, a
// version query per pair was a quarter of the store's work. The check was never atomic with the
// pair's append (a run can end between the two), so this only widens that window a little; the
// completion, which appends to the run stream, always checks.
import {
  Runner,
  Scenario,
  recordedCriteria,
  type Judge,
  evolveRun,
  initialRunState,
  runStream,
  forEachStreamPage,
  eventRegistry,
  type EventData,
  type EventStore,
  type RecordedEvent,
  type RunState,
} from "@verdict/domain";
import { judgeForRun, type WorkerJudgeOptions } from "./judging.js";
import { releaseOf, runCriteriaOf } from "./runReport.js";
import { silentLog, type WorkerLog } from "./workerLog.js";

export interface RunContext {
  runId: string;
  state: RunState;
  started: EventData<"RunStarted">;
  /** The RunStarted event as recorded (its id and metadata carry the run's correlation). */
  startedEvent: RecordedEvent;
  /** Stream version the state was folded at. */
  version: bigint;
  scenarios: Scenario[];
  runner: Runner;
  /** The run's judge (null: rules only); it scores the pairs and picks the verdict. */
  judge: Judge | null;
  /** Why the run's judge model cannot be served here: the run fails with it before any pair is replayed. */
  judgeRefusal: string | null;
}

const MAX_CACHED = 64;

export class RunContexts {
  private readonly cache = new Map<string, RunContext>();
  private readonly checkedAt = new Map<string, number>();
  private readonly checking = new Map<string, Promise<RunContext | null>>();
  private readonly settling = new Map<string, Promise<RunContext>>();
  private readonly kpiClaims = new Map<string, string>();

  constructor(
    private readonly store: EventStore,
    private readonly judge: WorkerJudgeOptions,
    private readonly log: WorkerLog = silentLog,
  ) {}

  /**
   * The run, current as of its stream's version now (or, with `maxAgeMs`, as of a check at most
   * that old); null when the run does not exist.
   */
  get(runId: string, options: { maxAgeMs?: number } = {}): Promise<RunContext | null> {
    const cached = this.cache.get(runId);
    const maxAgeMs = options.maxAgeMs ?? 0;
    if (cached && maxAgeMs > 0 && performance.now() - (this.checkedAt.get(runId) ?? -Infinity) <= maxAgeMs) return Promise.resolve(cached);
    // Callers that accept some age share the check in flight; a caller that wants "now" does not.
    if (maxAgeMs > 0) {
      const pending = this.checking.get(runId);
      if (pending) return pending;
    }
    const startedAt = performance.now();
    const check = this.check(runId, cached).then((context) => {
      // Not for a run forgotten (it ended) while this check was in flight: nothing would delete it.
      if (context && this.cache.get(runId) === context) this.checkedAt.set(runId, startedAt);
      return context;
    });
    const shared = check.finally(() => this.checking.get(runId) === shared && this.checking.delete(runId));
    this.checking.set(runId, shared);
    return shared;
  }

  private async check(runId: string, cached: RunContext | undefined): Promise<RunContext | null> {
    if (cached) {
      const version = await this.store.streamVersion(runStream(runId));
      if (version === cached.version) return cached;
    }
    const loaded = await this.load(runId, cached);
    if (!loaded) return null;
    this.remember(loaded);
    return loaded;
  }

  /**
   * Runs `settle` for a run once at a time in this process (its KPIs, kpiAuthoring.ts): the jobs
   * of a run that arrive together share one judge call instead of each asking.
   */
  settleOnce(runId: string, settle: () => Promise<RunContext>): Promise<RunContext> {
    const pending = this.settling.get(runId);
    if (pending) return pending;
    const shared = settle().finally(() => this.settling.delete(runId));
    this.settling.set(runId, shared);
    return shared;
  }

  /** This process's claim id on a run's KPI authoring (kpiAuthoring.ts): one for all its attempts. */
  kpiClaimId(runId: string, next: () => string): string {
    const known = this.kpiClaims.get(runId);
    if (known) return known;
    const claimId = next();
    this.kpiClaims.set(runId, claimId);
    return claimId;
  }

  /** Forgets a run (after it ended). */
  forget(runId: string): void {
    this.kpiClaims.delete(runId);
    this.cache.delete(runId);
    this.checkedAt.delete(runId);
  }

  private remember(context: RunContext): void {
    this.cache.delete(context.runId);
    this.cache.set(context.runId, context);
    if (this.cache.size > MAX_CACHED) this.forget(this.cache.keys().next().value as string);
  }

  private async load(runId: string, previous: RunContext | undefined): Promise<RunContext | null> {
    // Folded a page at a time; of the recorded events only RunStarted is kept.
    let startedEvent: RecordedEvent | undefined;
    let state = initialRunState();
    let version = -1n;
    await forEachStreamPage(this.store, runStream(runId), (page) => {
      for (let i = 0; i < page.length; i++) {
        if (!startedEvent && page[i].type === "RunStarted") startedEvent = page[i];
        state = evolveRun(state, eventRegistry.parseRecorded(page[i]));
      }
      version = page[page.length - 1].streamVersion;
    });
    if (!startedEvent) return null;
    const started = state.started as EventData<"RunStarted">;
    // The selection is frozen: keep the Runner (and its per-run refinement count) across reloads,
    // but for the KPIs a judge_defined run settled since, which it scores with from now on.
    const kpisSettled = previous !== undefined && previous.state.kpiAuthoring === null && state.kpiAuthoring !== null;
    if (previous && !kpisSettled) return { ...previous, state, version };
    const scenarios = started.scenarios.map((s) => Scenario.fromJSON(s));
    // A run reloaded for its KPIs keeps its judge (the same one: the run's judge is fixed).
    const { judge, refusal } = previous ? { judge: previous.judge, refusal: previous.judgeRefusal } : judgeForRun(started, this.judge);
    if (refusal && !previous) this.log.error(`run ${runId} fails: ${refusal}`);
    if (!judge && !refusal && !previous && started.judge.kind !== "rules") {
      this.log.error(`run ${runId} asks for judge ${started.judge_label ?? started.judge.kind}, but this worker has none (VERDICT_JUDGE=none): scoring on rules alone`);
    }
    const runner = new Runner({
      scenarios,
      models: started.models,
      replay: () => {
        throw new Error("the worker records replays itself; Runner.evaluate is given the recorded one");
      },
      // As recorded: an older run's unknown type scores null, as it did, instead of stopping the run.
      criteria: recordedCriteria(runCriteriaOf(started, state.kpiAuthoring)),
      judge,
      threshold: started.threshold,
      // As the run froze it: the evaluation changing later does not rescore the rest of this run.
      requireJudgeScores: started.require_judge_scores,
      availableTools: started.tools,
      metadata: started.metadata,
      release: releaseOf(started.release),
      // The evaluation's agent as the run froze it: diagnoses name it as a local run's do (null,
      // a run started before RunStarted v3: "the agent", as it was scored).
      agentName: started.agent,
    });
    return { runId, state, started, startedEvent, version, scenarios, runner, judge, judgeRefusal: refusal };
  }
}
