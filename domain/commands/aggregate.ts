// What every aggregate (catalog, evaluation, run, result pair) supplies to the command handler:
// a pure fold (`evolve`) and a pure decision (`decide`). Deciders never read a clock or a
// store; the handler gives them the time and any other stream's state they need.
import type { z } from "zod";
import type { DomainEvent, EventInput } from "../events/registry.js";

export interface DecideContext {
  /** The time of the decision, from the injected Clock. */
  now: Date;
  /** The stream the events will be appended to. */
  streamId: string;
}

export interface Aggregate<S, C extends { type: string }, X = object> {
  readonly name: string;
  /** Validates raw command input (zod); errors name the field and the rule. */
  readonly commandSchema: z.ZodType<C, unknown>;
  initialState(): S;
  evolve(state: S, event: DomainEvent): S;
  decide(state: S, command: C, context: DecideContext & X): EventInput[];
  /** Whether a version conflict may be retried by reading the stream again and deciding anew. */
  retryOnConflict(command: C): boolean;
}

/** Folds events into a state, as the handler does after reading a stream. */
export function fold<S, C extends { type: string }, X>(aggregate: Aggregate<S, C, X>, events: readonly DomainEvent[], state = aggregate.initialState()): S {
  return events.reduce((s, e) => aggregate.evolve(s, e), state);
}

export function pairName(scenarioKey: string, modelLabel: string): string {
  return `${scenarioKey} × ${modelLabel}`;
}
