// Stream `result-<runId>.<n>`: a pair's replay is recorded at most once, then scored once.
// The run's frozen selection (given as context) says which pairs exist and which stream holds
// each, so a pair outside the selection is refused before anything is written. The same replay
// again is a no-op (a resend), whatever the run's state since. A different one is refused as a
// duplicate: a PairRefused, like a pair outside the selection, which fails an external run
// (recordExternalReplay.ts). Once the run has ended, anything new is refused as too late.
import type { Aggregate, DecideContext } from "../aggregate.js";
import { pairName } from "../aggregate.js";
import { DomainError } from "../../events/domainError.js";
import type { DomainEvent, EventInput } from "../../events/registry.js";
import type { ReplayData } from "../../events/resultEvents.js";
import { storableJsonOf } from "../../events/storableText.js";
import { resultStream } from "../../events/streams.js";
import { findPair, type RunPair, type RunState } from "../run/runState.js";
import { PairRefused } from "./pairRefused.js";
import { ResultCommand, type ScoreResult } from "./resultCommands.js";
import { sameReplay } from "./sameReplay.js";

export interface ResultState {
  status: "none" | "replayed" | "scored";
  pass: boolean | null;
  /** The replay as recorded (null before it is): a replay sent again is compared with it. */
  replay: ReplayData | null;
}

export interface ResultContext {
  run?: RunState;
}

/** The stream of a pair in a started run; refuses a pair outside its selection. */
export function pairStream(run: RunState, scenarioKey: string, modelLabel: string): string {
  return resultStream(run.runId ?? "", requirePair(run, scenarioKey, modelLabel).n);
}

function requirePair(run: RunState | undefined, scenarioKey: string, modelLabel: string, runId = run?.runId ?? "?"): RunPair {
  if (!run || run.status === "none") throw DomainError.notFound(`run ${runId} not found`, "run_id");
  const pair = findPair(run, scenarioKey, modelLabel);
  if (!pair) {
    throw new PairRefused("validation", `pair ${pairName(scenarioKey, modelLabel)} is not in run ${runId}'s selection`, "scenario_key", "unknown", scenarioKey, modelLabel);
  }
  return pair;
}

function locate(command: ResultCommand, context: DecideContext & ResultContext): RunPair {
  const pair = requirePair(context.run, command.scenario_key, command.model_label, command.run_id);
  const expected = resultStream(command.run_id, pair.n);
  if (context.streamId !== expected) {
    throw DomainError.validation(`pair ${pairName(pair.scenarioKey, pair.modelLabel)} belongs in stream ${expected}, not ${context.streamId}`, "stream");
  }
  return pair;
}

function checkScore(command: ScoreResult): void {
  const name = pairName(command.scenario_key, command.model_label);
  if (command.pass !== (command.status === "passed")) {
    throw DomainError.validation(`pair ${name}: pass must be true exactly when status is passed`, "pass");
  }
  if (command.status === "passed" && command.fault !== null) throw DomainError.validation(`pair ${name}: a passed result has no fault`, "fault");
  if (command.status === "failed" && command.fault === null) throw DomainError.validation(`pair ${name}: a failed result names its fault`, "fault");
  if (command.status === "errored" && command.fault !== "run_error") {
    throw DomainError.validation(`pair ${name}: an errored result carries fault run_error`, "fault");
  }
}

// An agent's answer and a judge's are untrusted text that cannot be refused (they are what was
// said), but a NUL or an unpaired surrogate in them cannot be stored by PostgreSQL: each is
// recorded as U+FFFD, as a decoder would, so the pair is scored on the text the record holds.
function decide(state: ResultState, command: ResultCommand, context: DecideContext & ResultContext): EventInput[] {
  const pair = locate(command, context);
  const name = pairName(pair.scenarioKey, pair.modelLabel);
  const identity = { run_id: command.run_id, n: pair.n, scenario_key: pair.scenarioKey, model_label: pair.modelLabel };
  // Sent again as recorded (a lost answer, a retried request): nothing new, nothing counted twice,
  // and asked before the run's state, so a host retrying after the run ended gets the same answer.
  if (command.type === "RecordReplay" && state.replay && sameReplay(state.replay, command.replay)) return [];
  if (context.run?.status !== "running") throw DomainError.conflict(`run ${command.run_id} is ${context.run?.status}; it takes no more results`, "run_id");
  switch (command.type) {
    case "RecordReplay":
      if (state.status === "none") return [{ type: "ReplayRecorded", data: { ...identity, replay: storableJsonOf(command.replay) } }];
      throw new PairRefused(
        "conflict",
        `pair ${name} of run ${command.run_id} is already recorded with a different replay`,
        "scenario_key",
        "duplicate",
        pair.scenarioKey,
        pair.modelLabel,
      );
    case "ScoreResult": {
      if (state.status === "none") throw DomainError.conflict(`pair ${name} of run ${command.run_id} has no replay recorded yet`, "scenario_key");
      if (state.status === "scored") throw DomainError.conflict(`pair ${name} of run ${command.run_id} is already scored`, "scenario_key");
      checkScore(command);
      const { type: _t, run_id: _r, scenario_key: _s, model_label: _m, ...score } = command;
      return [{ type: "ResultScored", data: { ...identity, ...storableJsonOf(score) } }];
    }
  }
}

function evolve(state: ResultState, event: DomainEvent): ResultState {
  if (event.type === "ReplayRecorded") return { ...state, status: "replayed", replay: event.data.replay };
  if (event.type === "ResultScored") return { ...state, status: "scored", pass: event.data.pass };
  return state;
}

export const resultAggregate: Aggregate<ResultState, ResultCommand, ResultContext> = {
  name: "result",
  commandSchema: ResultCommand,
  initialState: () => ({ status: "none", pass: null, replay: null }),
  evolve,
  decide,
  // Re-deciding on fresh state is safe for both: a replay that lost the "no stream" race finds
  // the pair recorded (the same replay: a no-op; another: refused, never appended); scoring
  // finds it already scored.
  retryOnConflict: () => true,
};
