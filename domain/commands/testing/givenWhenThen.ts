// Given events / when command / then events, for decider tests.
import { eventRegistry, type EventInput } from "../../events/registry.js";
import { parseOrThrow } from "../../events/zodIssues.js";
import type { Aggregate, DecideContext } from "../aggregate.js";
import { fold } from "../aggregate.js";

const NOW = new Date("2026-11-30T12:00:00.000Z");

export function given<S, C extends { type: string }, X>(
  aggregate: Aggregate<S, C, X>,
  events: EventInput[],
  context: Partial<DecideContext> & X = {} as Partial<DecideContext> & X,
) {
  const state = fold(aggregate, events.map((e) => eventRegistry.validate(e)));
  return {
    state,
    when(input: unknown): EventInput[] {
      const command = parseOrThrow(aggregate.commandSchema, input, "command is invalid");
      const decided = aggregate.decide(state, command, { now: NOW, streamId: "test-stream", ...context });
      // Every decided event must pass its own schema, as the handler will demand.
      decided.forEach((e) => eventRegistry.validate(e));
      return decided;
    },
  };
}
