// Stream `evaluation_name-<digest>`: the reservation of one evaluation name for one agent of one
// tenant (reference-platform §1: name unique per agent). Decisions never read read models, so
// uniqueness is a stream of its own that takes one EvaluationNameReserved, appended with
// "no stream": of two evaluations racing for a name, the store lets exactly one reserve it.
import { z } from "zod";
import type { Aggregate } from "../aggregate.js";
import { DomainError } from "../../events/domainError.js";
import type { DomainEvent, EventInput } from "../../events/registry.js";
import { CreateEvaluation } from "./evaluationCommands.js";

export const ReserveEvaluationName = CreateEvaluation.pick({ evaluation_id: true, tenant: true, agent: true, name: true }).extend({
  type: z.literal("ReserveEvaluationName"),
});
export type ReserveEvaluationName = z.output<typeof ReserveEvaluationName>;

export interface EvaluationNameState {
  /** The evaluation holding the name, or null while nobody does. */
  evaluationId: string | null;
}

function evolve(state: EvaluationNameState, event: DomainEvent): EvaluationNameState {
  return event.type === "EvaluationNameReserved" ? { evaluationId: event.data.evaluation_id } : state;
}

function decide(state: EvaluationNameState, command: ReserveEvaluationName): EventInput[] {
  const { type: _type, ...reservation } = command;
  if (state.evaluationId === null) return [{ type: "EvaluationNameReserved", data: reservation }];
  // The same evaluation again: a create retried after its reservation was written but before
  // its EvaluationCreated was (a process that died in between) finishes instead of refusing.
  if (state.evaluationId === command.evaluation_id) return [];
  throw DomainError.conflict(`name: an evaluation named ${JSON.stringify(command.name)} already exists for agent ${JSON.stringify(command.agent)}`, "name");
}

export const evaluationNameAggregate: Aggregate<EvaluationNameState, ReserveEvaluationName> = {
  name: "evaluation name",
  commandSchema: ReserveEvaluationName,
  initialState: () => ({ evaluationId: null }),
  evolve,
  decide,
  // A lost race is decided again on the stream as the winner left it: the winner's id is this
  // evaluation's (a concurrent retry, nothing to add) or another's (a conflict).
  retryOnConflict: () => true,
};
