// An external run's host records a pair's replay (reference-platform §3 rule 2, §7 behaviour 2):
// exactly one result per selected pair. The pair's stream decides: a new replay is recorded, the
// same replay again is a no-op (even once the run has ended: a host retrying a request whose
// answer it lost), and one for a pair outside the selection or a second, different one is
// refused (PairRefused). A refused result then fails the run on the run's stream with RejectPair,
// appended at the version the run was read at and decided again on a lost race, so the run fails
// once however many refused results race, and a run already ended stays as it is.
// The results already recorded are kept: nothing is removed from their streams.
import type { EventStore } from "../../ports/eventStore.js";
import { DomainError } from "../../events/domainError.js";
import { RECORDED_REPLAY_KEYS, ReplayError, replayKeysAsRecorded } from "../../replay/index.js";
import { runStream } from "../../events/streams.js";
import { parseOrThrow } from "../../events/zodIssues.js";
import { handleCommand, type HandledCommand, type HandleOptions } from "../handleCommand.js";
import { runAggregate } from "../run/runAggregate.js";
import type { RunState } from "../run/runState.js";
import { isPairRefused } from "./pairRefused.js";
import { pairStream, resultAggregate, type ResultState } from "./resultAggregate.js";
import { RecordReplay } from "./resultCommands.js";

export interface RecordedExternalReplay {
  /** The pair's stream after the command. */
  result: HandledCommand<ResultState>;
  /** True when this exact replay was already recorded: nothing was appended. */
  duplicate: boolean;
}

export interface RefusedExternalReplay {
  /**
   * Why the replay was refused, with the run's fate in its message: the refusal's code
   * (validation for a pair outside the selection, conflict for a different second replay).
   */
  error: DomainError;
  /** The run's stream after RejectPair: RunFailed appended, or nothing when the run had already ended. */
  run: HandledCommand<RunState>;
}

export type ExternalReplayOutcome = ({ refused: null } & RecordedExternalReplay) | { refused: RefusedExternalReplay };

/**
 * The host's replay with its keys as recorded (camelCase read as the library reads it); an
 * unknown key is refused naming it, where the schema alone dropped it and scored what was left.
 */
function replayAsRecorded(replay: unknown): unknown {
  if (replay === null || typeof replay !== "object" || Array.isArray(replay)) return replay;
  try {
    return replayKeysAsRecorded(replay as Record<string, unknown>);
  } catch (error) {
    if (!(error instanceof ReplayError)) throw error;
    throw DomainError.validation(`${error.message} (a replay's keys: ${RECORDED_REPLAY_KEYS.join(", ")}, or their camelCase)`, `replay.${error.field}`);
  }
}

/**
 * Records `input` (RecordReplay's fields, without `type`) in run `run`, as its stream was read
 * by the caller (which checked it is the caller's and external). Errors that are not a refused
 * pair (a replay the schema refuses, a new or different one for a run that has ended) are thrown
 * and change nothing.
 */
export async function recordExternalReplay(
  store: EventStore,
  run: RunState,
  input: unknown,
  options: Omit<HandleOptions<never>, "decideContext">,
): Promise<ExternalReplayOutcome> {
  const command = parseOrThrow(RecordReplay, { type: "RecordReplay", ...(input as object), replay: replayAsRecorded((input as { replay?: unknown }).replay) }, "command is invalid");
  try {
    const streamId = pairStream(run, command.scenario_key, command.model_label);
    const result = await handleCommand(store, resultAggregate, streamId, command, { ...options, decideContext: { run } });
    return { refused: null, result, duplicate: result.events.length === 0 };
  } catch (error) {
    if (!isPairRefused(error) || !run.external) throw error;
    const rejection = { type: "RejectPair", run_id: command.run_id, scenario_key: error.scenarioKey, model_label: error.modelLabel, problem: error.problem };
    const failed = await handleCommand(store, runAggregate, runStream(command.run_id), rejection, options);
    const fate = failed.events.length > 0 ? `; run ${command.run_id} failed: ${failed.state.failure}` : `; run ${command.run_id} is ${failed.state.status}`;
    return { refused: { error: new DomainError(error.code, error.message + fate, error.field), run: failed } };
  }
}
