// Stream `evaluation_name-<digest>`: the reservation of one evaluation name for one agent of one
// tenant (reference-platform §1: name unique per agent). Decisions never read read models, so
// uniqueness is a stream of its own: the first EvaluationNameReserved is appended with
// "no stream", so of two evaluations racing for a name the store lets exactly one reserve it.
//
// A reservation whose evaluation was never recorded (its creation died, or its store failed,
// between the two appends) is taken over by another evaluation once it is STALE_AFTER_MS old:
// without that the name would stay locked to an evaluation that does not exist. The takeover
// appends a second reservation at the version it read, so of two takeovers one wins. What it
// cannot rule out is a creation that stalled longer than that between its two appends and then
// wrote its evaluation after all: that would leave two evaluations with one name.
import { z } from "zod";
import type { Aggregate, DecideContext } from "../aggregate.js";
import { DomainError } from "../../events/domainError.js";
import type { DomainEvent, EventInput } from "../../events/registry.js";
import { CreateEvaluation } from "./evaluationCommands.js";

/** How old a reservation without its evaluation must be before another evaluation may take the name. */
const STALE_AFTER_MS = 5 * 60_000;

export const ReserveEvaluationName = CreateEvaluation.pick({ evaluation_id: true, tenant: true, agent: true, name: true }).extend({
  type: z.literal("ReserveEvaluationName"),
});
export type ReserveEvaluationName = z.output<typeof ReserveEvaluationName>;

export interface EvaluationNameState {
  /** The evaluation holding the name, or null while nobody does. */
  evaluationId: string | null;
  /** When it was reserved; null for a reservation recorded before that was kept. */
  reservedAt: string | null;
}

/** What the handler read besides this stream: whether the holder's evaluation was recorded. */
interface NameContext {
  /** False when the evaluation holding the name has no event (its creation never finished). */
  holderRecorded?: boolean;
}

function evolve(state: EvaluationNameState, event: DomainEvent): EvaluationNameState {
  return event.type === "EvaluationNameReserved" ? { evaluationId: event.data.evaluation_id, reservedAt: event.data.reserved_at } : state;
}

/** A reservation whose evaluation was never recorded and that is old enough to give up on. */
function abandoned(state: EvaluationNameState, context: DecideContext & NameContext): boolean {
  if (context.holderRecorded !== false) return false;
  return state.reservedAt === null || context.now.getTime() - Date.parse(state.reservedAt) >= STALE_AFTER_MS;
}

function decide(state: EvaluationNameState, command: ReserveEvaluationName, context: DecideContext & NameContext): EventInput[] {
  const { type: _type, ...reservation } = command;
  const reserve: EventInput[] = [{ type: "EvaluationNameReserved", data: { ...reservation, reserved_at: context.now.toISOString() } }];
  if (state.evaluationId === null) return reserve;
  // The same evaluation again: a create retried after its reservation was written but before
  // its EvaluationCreated was (a process that died in between) finishes instead of refusing.
  if (state.evaluationId === command.evaluation_id) return [];
  if (abandoned(state, context)) return reserve;
  const taken = `name: an evaluation named ${JSON.stringify(command.name)} already exists for agent ${JSON.stringify(command.agent)}`;
  if (context.holderRecorded !== false) throw DomainError.conflict(taken, "name");
  const freedAt = new Date(Date.parse(state.reservedAt as string) + STALE_AFTER_MS).toISOString();
  throw DomainError.conflict(`${taken} (its creation has not finished; if it failed, the name is free again at ${freedAt})`, "name");
}

export const evaluationNameAggregate: Aggregate<EvaluationNameState, ReserveEvaluationName, NameContext> = {
  name: "evaluation name",
  commandSchema: ReserveEvaluationName,
  initialState: () => ({ evaluationId: null, reservedAt: null }),
  evolve,
  decide,
  // A lost race is decided again on the stream as the winner left it: the winner's id is this
  // evaluation's (a concurrent retry, nothing to add) or another's (a conflict).
  retryOnConflict: () => true,
};
