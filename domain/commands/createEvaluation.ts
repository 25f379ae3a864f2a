// CreateEvaluation touches two streams: `evaluation_name-<digest>` reserves the name for the
// agent (EvaluationNameReserved, "no stream"), then `evaluation-<id>` records EvaluationCreated.
// As StartRun does (twoStreamCommands.ts), both are decided from one read of each stream before
// either is written, the evaluation first: an input the evaluation refuses, or a name another
// evaluation holds, writes nothing. Should the process die between the two appends, the name
// stays reserved for this evaluation id and a retry of the same command finishes the creation;
// another evaluation asking for that name is refused until the reservation is STALE_AFTER_MS
// old, and then takes it over (evaluationName.ts). An evaluation recorded before names were
// reserved is given its reservation first (adoptEvaluationName.ts), so it holds its name too.
import type { EventStore } from "../ports/eventStore.js";
import { eventRegistry } from "../events/registry.js";
import { evaluationNameStream, evaluationStream } from "../events/streams.js";
import { parseOrThrow } from "../events/zodIssues.js";
import { CreateEvaluation } from "./evaluation/evaluationCommands.js";
import { evaluationAggregate } from "./evaluation/evaluationAggregate.js";
import { adoptEvaluationName } from "./evaluation/adoptEvaluationName.js";
import type { EvaluationDirectory } from "../ports/evaluationDirectory.js";
import { evaluationNameAggregate, type EvaluationNameState } from "./evaluation/evaluationName.js";
import type { EvaluationState } from "./evaluation/evaluationState.js";
import { appendBoth } from "./appendBoth.js";
import { decideEvents, DEFAULT_RETRIES, handleCommand, loadAggregate, type HandledCommand, type HandleOptions } from "./handleCommand.js";

export interface CreatedEvaluation {
  evaluation: HandledCommand<EvaluationState>;
  name: HandledCommand<EvaluationNameState>;
}

type Options = Omit<HandleOptions<never>, "decideContext"> & {
  /** Where evaluations older than reservations are found; without one, only reservations hold names. */
  directory?: EvaluationDirectory;
};

/**
 * The one way to create an evaluation. A race lost on the name is decided again from a new read
 * of both streams (the winner's reservation then answers); one lost on the evaluation stream
 * (the same evaluation id, concurrently) is the evaluation aggregate's to answer.
 */
export async function createEvaluation(store: EventStore, input: unknown, options: Options): Promise<CreatedEvaluation> {
  const registry = options.registry ?? eventRegistry;
  const command = parseOrThrow(CreateEvaluation, { type: "CreateEvaluation", ...(input as object) }, "command is invalid");
  const evaluationStreamId = evaluationStream(command.evaluation_id);
  const nameStreamId = evaluationNameStream(command.tenant, command.agent, command.name);
  const reserve = { type: "ReserveEvaluationName" as const, evaluation_id: command.evaluation_id, tenant: command.tenant, agent: command.agent, name: command.name };
  const retries = options.retries ?? DEFAULT_RETRIES;
  if (options.directory) await adoptEvaluationName(store, options.directory, { tenant: command.tenant, agent: command.agent, name: command.name }, options);
  for (let attempt = 1; ; attempt++) {
    const evaluation = await loadAggregate(store, evaluationAggregate, evaluationStreamId, registry);
    const name = await loadAggregate(store, evaluationNameAggregate, nameStreamId, registry);
    const holder = name.state.evaluationId;
    const holderRecorded = holder === null || holder === command.evaluation_id || (await store.streamVersion(evaluationStream(holder))) !== null;
    const now = options.clock.now();
    const creating = decideEvents(evaluationAggregate, evaluation.state, command, { now, streamId: evaluationStreamId }, options);
    const reserving = decideEvents(evaluationNameAggregate, name.state, reserve, { now, streamId: nameStreamId, holderRecorded }, options);
    const written = await appendBoth(
      store,
      { aggregate: evaluationNameAggregate, streamId: nameStreamId, loaded: name, decision: reserving },
      { aggregate: evaluationAggregate, streamId: evaluationStreamId, loaded: evaluation, decision: creating },
      { command, attempt, retries, secondLost: () => handleCommand(store, evaluationAggregate, evaluationStreamId, command, options) },
    );
    if (written) return { name: written[0], evaluation: written[1] };
  }
}
