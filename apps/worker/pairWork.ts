// One scenario x model pair, start to finish, safe to run any number of times: the replay is
// appended to the pair's stream with "no stream" (a pair is replayed into the record at most
// once; a loser reads the winner's replay and goes on with it), then scored with the run's
// Runner. When scoring succeeds right after the replay, ReplayRecorded and ResultScored go in ONE
// append (still two events, still "no stream": half the writes per pair); when scoring throws,
// the replay is appended alone first so a redelivery scores it without replaying the agent
// again. A pair already scored does nothing; a pair replayed but not scored (a worker died
// between two appends, or scoring failed) is scored at the version after the replay.
import {
  DomainError,
  clippedJudgeText,
  Replay,
  priceReplay,
  WrongExpectedVersionError,
  eventRegistry,
  resultAggregate,
  resultStream,
  toEventsToAppend,
  type Clock,
  type DomainEvent,
  type EventContext,
  type EventData,
  type EventInput,
  type EventStore,
  type EventToAppend,
  type IdGenerator,
  type AgentRuntime,
  type PriceRefusal,
  type PriceTable,
  type RecordReplay,
  type ResultCommand,
  type ResultState,
} from "@verdict/domain";
import { replayThroughRuntime } from "./agentReplay.js";
import { exchangeData } from "./exchanges.js";
import { withPairContext } from "./judging.js";
import type { Limiter } from "@verdict/infra/limiter";
import { failRun } from "./poisonJobs.js";
import type { RunContext } from "./runContext.js";

export interface PairDeps {
  store: EventStore;
  /** Null for a process that only scores what hosts recorded (external runs). */
  runtime: AgentRuntime | null;
  /**
   * Prices a replay the agent returned without a cost, before it is recorded (the event holds
   * the estimate; reports are rebuilt from it, never repriced). A replay a host records (external
   * runs) is recorded as the host sent it. Null: no table (no_usage still applies).
   */
  prices?: PriceTable | null;
  /**
   * Told of an estimate no event can record (past COST_LIMIT, or not finite: an absurd rate); the
   * replay is recorded unpriced, its answer and tokens kept (startWorker logs it, rate-limited).
   */
  onPriceRefused?: (refusal: PriceRefusal) => void;
  replayTimeoutMs: number;
  clock: Clock;
  ids: IdGenerator;
  actor: string;
  /** Bounds the agent replays in flight when more jobs than that are handled at once. */
  agentSlots?: Limiter;
  /**
   * Aborts (with WorkerStopping) when the worker stops: a job still waiting for an agent slot
   * then gives up, unacknowledged, instead of replaying during the shutdown.
   */
  stopping?: AbortSignal;
  /**
   * The pairs this process is working on (run id/n), so a second job for one of them (a job
   * published again by a restarted dispatcher or a watchdog re-drive, taken in the same window)
   * waits for the first instead of calling the agent again.
   */
  pairsInFlight?: Map<string, Promise<PairOutcome>>;
  /**
   * Whether the run still takes results, asked again after a replay returns: a replay may run for
   * minutes, and a run the watchdog failed meanwhile got its results appended after RunFailed
   * (FAILED for "no result" beside a progress of every pair passed).
   */
  stillRunning?: (runId: string) => Promise<boolean>;
}

/**
 * A job that waited this long for an agent slot looks again whether its pair was recorded
 * meanwhile. At 50 ms most jobs of a fast agent looked again, a store query per pair: the
 * distributed platform bench fell from 806-1,072 to 613-631 results/s. A wait this long is one
 * a slow agent makes, where one query is nothing beside the replay.
 */
export const SLOT_WAIT_RECHECK_MS = 1_000;

export type PairOutcome = "scored" | "already-scored" | "run-ended" | "not-replayed";

interface PairStream {
  replay: EventData<"ReplayRecorded"> | null;
  scored: EventData<"ResultScored"> | null;
  version: bigint | null;
}

async function readPair(store: EventStore, streamId: string): Promise<PairStream> {
  const recorded = await store.readStream(streamId, { from: "start", direction: "forwards" });
  const pair: PairStream = { replay: null, scored: null, version: recorded.length ? recorded[recorded.length - 1].streamVersion : null };
  for (const r of recorded) {
    const event: DomainEvent = eventRegistry.parseRecorded(r);
    if (event.type === "ReplayRecorded") pair.replay = event.data;
    if (event.type === "ResultScored") pair.scored = event.data;
  }
  return pair;
}

export function runEventContext(run: RunContext, actor: string): EventContext {
  const metadata = run.startedEvent.metadata as { correlation_id?: string };
  return { tenant: run.started.tenant, actor, correlationId: metadata.correlation_id, causationId: run.startedEvent.id };
}

/**
 * Decides with the result aggregate (so its rules hold) and appends at `expected`. The command
 * is built here from typed values, so it is not parsed again: the event it decides is validated
 * against its schema by toEventsToAppend, which is what guards the log.
 */
function decided(deps: PairDeps, run: RunContext, streamId: string, state: ResultState, command: ResultCommand): EventToAppend[] {
  const events: EventInput[] = resultAggregate.decide(state, command, { now: deps.clock.now(), streamId, run: run.state });
  return toEventsToAppend(events, runEventContext(run, deps.actor), { clock: deps.clock, ids: deps.ids });
}

async function appendDecided(deps: PairDeps, run: RunContext, streamId: string, state: ResultState, command: ResultCommand, expected: bigint | "noStream") {
  const toAppend = decided(deps, run, streamId, state, command);
  const appended = await deps.store.append(streamId, toAppend, { expectedVersion: expected });
  return { appended, data: toAppend[0].data };
}

function pairIdentity(run: RunContext, n: number) {
  const pair = run.state.pairs[n];
  return { run_id: run.runId, scenario_key: pair.scenarioKey, model_label: pair.modelLabel };
}

const NONE: ResultState = { status: "none", pass: null, replay: null };

function recordOf(run: RunContext, n: number, replay: Replay): RecordReplay {
  return { type: "RecordReplay", ...pairIdentity(run, n), replay: replay.toJSON() as unknown as RecordReplay["replay"] };
}

/** The ReplayRecorded event to append for `replay` (or for the run_error it becomes). */
function replayEvents(deps: PairDeps, run: RunContext, n: number, streamId: string, replay: Replay): EventToAppend[] {
  try {
    return decided(deps, run, streamId, NONE, recordOf(run, n, replay));
  } catch (error) {
    // A replay the event schema refuses (one over the 8 MB event limit, fractional tokens, metadata nested
    // too deeply to serialize...) is recorded as the run_error it is, rather than redelivered
    // forever (or failed as a permanent error three times, failing the whole run).
    if (!(error instanceof DomainError && error.code === "validation")) throw error;
    const failed = Replay.failed(`the replay could not be recorded: ${error.message}`, { durationMs: replay.durationMs });
    return decided(deps, run, streamId, NONE, recordOf(run, n, failed));
  }
}

/**
 * Records the replay and, when scoring succeeds, its score in the same append. On a lost race
 * (another worker recorded this pair first) the pair as the store holds it is returned, to be
 * scored if it is not yet.
 */
async function recordAndScore(deps: PairDeps, run: RunContext, n: number, streamId: string, replay: Replay): Promise<PairOutcome | PairStream> {
  const recorded = replayEvents(deps, run, n, streamId, replay);
  let scored: EventToAppend[];
  try {
    scored = decided(deps, run, streamId, REPLAYED, await scoreCommand(run, n, recorded[0].data as EventData<"ReplayRecorded">));
  } catch (error) {
    // Keep the replay (the agent is not replayed again); the redelivery scores it.
    const pair = await appendReplayOnly(deps, streamId, recorded);
    if (pair.scored) return "already-scored";
    throw error;
  }
  try {
    await deps.store.append(streamId, [...recorded, ...scored], { expectedVersion: "noStream" });
    return "scored";
  } catch (error) {
    if (!(error instanceof WrongExpectedVersionError)) throw error;
    return readPair(deps.store, streamId);
  }
}

async function appendReplayOnly(deps: PairDeps, streamId: string, recorded: EventToAppend[]): Promise<PairStream> {
  try {
    const appended = await deps.store.append(streamId, recorded, { expectedVersion: "noStream" });
    return { replay: recorded[0].data as EventData<"ReplayRecorded">, scored: null, version: appended.nextExpectedVersion };
  } catch (error) {
    if (!(error instanceof WrongExpectedVersionError)) throw error;
    return readPair(deps.store, streamId);
  }
}

const REPLAYED: ResultState = { status: "replayed", pass: null, replay: null };

async function scoreCommand(run: RunContext, n: number, recorded: EventData<"ReplayRecorded">): Promise<ResultCommand> {
  const scenario = run.scenarios[Math.floor(n / run.started.models.length)];
  const spec = run.started.models[n % run.started.models.length];
  const replay = Replay.recorded(recorded.replay);
  // Only a judge reads the pair's context: a rules-only run does not enter one, so the process's
  // promises are not tracked by async hooks for nothing (AsyncLocalStorage turns them on).
  const evaluate = () => run.runner.evaluate(scenario, spec, replay);
  const result = await (run.judge ? withPairContext({ scenarioKey: scenario.key, modelLabel: spec.label }, evaluate) : evaluate());
  return {
    type: "ScoreResult",
    ...pairIdentity(run, n),
    status: result.status,
    score: result.score,
    scores: { ...result.scores },
    pass: result.passed,
    fault: result.fault,
    // A judge may have written both (a refined recommendation, a suggested tool, an instruction change).
    recommendation: clippedJudgeText(result.recommendation),
    diagnosis: result.diagnosis ? clippedJudgeText(JSON.parse(JSON.stringify(result.diagnosis)) as Record<string, unknown>) : null,
    judge_exchanges: result.judgeExchanges.map((exchange) => exchangeData(exchange)),
  };
}

async function scoreRecorded(deps: PairDeps, run: RunContext, n: number, streamId: string, pair: PairStream): Promise<PairOutcome> {
  const command = await scoreCommand(run, n, pair.replay as EventData<"ReplayRecorded">);
  try {
    await appendDecided(deps, run, streamId, REPLAYED, command, pair.version as bigint);
    return "scored";
  } catch (error) {
    if (error instanceof WrongExpectedVersionError) return "already-scored";
    throw error;
  }
}

/**
 * Brings pair `n` of a run to scored. With `replay: false` only a recorded replay is scored
 * (external runs: the host replays). The run must be current (see RunContexts.get).
 */
export async function processPair(deps: PairDeps, run: RunContext, n: number, options: { replay: boolean }): Promise<PairOutcome> {
  const inFlight = deps.pairsInFlight;
  if (!inFlight) return processPairOnce(deps, run, n, options);
  const key = `${run.runId}/${n}`;
  const before = inFlight.get(key);
  // After the job already at it (whatever became of it), this one finds what it left.
  const work = (async () => {
    if (before) await before.catch(() => undefined);
    return processPairOnce(deps, run, n, options);
  })();
  inFlight.set(key, work);
  try {
    return await work;
  } finally {
    if (inFlight.get(key) === work) inFlight.delete(key);
  }
}

async function processPairOnce(deps: PairDeps, run: RunContext, n: number, options: { replay: boolean }): Promise<PairOutcome> {
  if (run.state.status !== "running") return "run-ended";
  if (run.judgeRefusal) {
    // A pinned judge this worker cannot reach fails the run rather than grade it on another model.
    await failRun(deps, { runId: run.runId, tenant: run.started.tenant }, run.judgeRefusal);
    return "run-ended";
  }
  const streamId = resultStream(run.runId, n);
  // Most pairs are new: a version check (which the SQL stores batch across pairs) settles that
  // without reading the stream.
  let pair = (await deps.store.streamVersion(streamId)) === null ? { replay: null, scored: null, version: null } : await readPair(deps.store, streamId);
  if (pair.scored) return "already-scored";
  if (!pair.replay) {
    if (!options.replay || !deps.runtime) return "not-replayed";
    const scenario = run.started.scenarios[Math.floor(n / run.started.models.length)];
    const model = run.started.models[n % run.started.models.length];
    const runtime = deps.runtime;
    const prices = deps.prices ?? null;
    const replayNow = async () => priceReplay(await replayThroughRuntime(runtime, scenario, model, deps.replayTimeoutMs), model, scenario.prompt, prices, deps.onPriceRefused);
    // A slot may take long to come: another worker may have recorded the pair meanwhile (a job
    // delivered again after a rebalance), and then the agent is not called for it a second time.
    // A slot that came soon needs no second look (a store query per pair at full speed).
    const asked = performance.now();
    const replay = deps.agentSlots
      ? await deps.agentSlots.run(
          async () => (performance.now() - asked < SLOT_WAIT_RECHECK_MS || (await deps.store.streamVersion(streamId)) === null ? replayNow() : null),
          deps.stopping,
        )
      : await replayNow();
    if (deps.stillRunning && !(await deps.stillRunning(run.runId))) return "run-ended";
    if (replay === null) {
      pair = await readPair(deps.store, streamId); // recorded elsewhere while this job waited
      if (!pair.replay) return "not-replayed";
    } else {
      const outcome = await recordAndScore(deps, run, n, streamId, replay);
      if (typeof outcome === "string") return outcome;
      pair = outcome;
    }
    if (pair.scored) return "already-scored";
  }
  return scoreRecorded(deps, run, n, streamId, pair);
}
