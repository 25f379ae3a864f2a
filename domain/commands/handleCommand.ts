// Command handling: read the stream, fold it, decide, append with the expected version the
// read saw ("no stream" for a new stream, else the exact version). A lost race is retried a
// bounded number of times when the aggregate allows it for that command.
import type { EventStore, EventToAppend, LogPosition, RecordedEvent } from "../ports/eventStore.js";
import { WrongExpectedVersionError } from "../ports/eventStore.js";
import type { Clock, IdGenerator } from "../events/clock.js";
import { DomainError } from "../events/domainError.js";
import type { EventContext } from "../events/metadata.js";
import { eventRegistry, type DomainEvent, type EventRegistry } from "../events/registry.js";
import { toEventsToAppend } from "../events/toAppend.js";
import { parseOrThrow } from "../events/zodIssues.js";
import type { Aggregate } from "./aggregate.js";

export const DEFAULT_RETRIES = 3;
const PAGE = 1000;

export interface HandleOptions<X> {
  clock: Clock;
  ids: IdGenerator;
  /** Tenant, actor, correlation and causation for the appended events' metadata. */
  context: EventContext;
  /** Extra state the decider reads (e.g. the run a result belongs to). */
  decideContext?: X;
  /** Version conflicts retried at most this many times (default 3); 0 never retries. */
  retries?: number;
  registry?: EventRegistry;
}

export interface AppendedEvent extends EventToAppend {
  streamId: string;
  streamVersion: bigint;
}

export interface HandledCommand<S> {
  streamId: string;
  /** What was appended, in order, with each event's stream version; empty when nothing was. */
  events: AppendedEvent[];
  /** The same events, typed. */
  domainEvents: DomainEvent[];
  /** State after the appended events. */
  state: S;
  /** Stream version after the command, or null when the stream still does not exist. */
  version: bigint | null;
  /** Log position of the last appended event, or null when nothing was appended. */
  position: LogPosition | null;
  attempts: number;
}

/** Reads a whole stream forwards in pages, so no adapter's default limit cuts it short. */
export async function readWholeStream(store: EventStore, streamId: string): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (;;) {
    const from = all.length === 0 ? ("start" as const) : all[all.length - 1].streamVersion + 1n;
    const page = await store.readStream(streamId, { from, direction: "forwards", limit: PAGE });
    all.push(...page);
    if (page.length < PAGE) return all;
  }
}

/** Loads a stream and folds it: the aggregate's current state and the version it was read at. */
export async function loadAggregate<S, C extends { type: string }, X>(
  store: EventStore,
  aggregate: Aggregate<S, C, X>,
  streamId: string,
  registry: EventRegistry = eventRegistry,
): Promise<{ state: S; version: bigint | null }> {
  const recorded = await readWholeStream(store, streamId);
  const state = recorded.reduce((s, r) => aggregate.evolve(s, registry.parseRecorded(r)), aggregate.initialState());
  return { state, version: recorded.length ? recorded[recorded.length - 1].streamVersion : null };
}

export async function handleCommand<S, C extends { type: string }, X>(
  store: EventStore,
  aggregate: Aggregate<S, C, X>,
  streamId: string,
  input: unknown,
  options: HandleOptions<X>,
): Promise<HandledCommand<S>> {
  const registry = options.registry ?? eventRegistry;
  const command = parseOrThrow(aggregate.commandSchema, input, "command is invalid");
  const retries = aggregate.retryOnConflict(command) ? (options.retries ?? DEFAULT_RETRIES) : 0;
  for (let attempt = 1; ; attempt++) {
    const { state, version } = await loadAggregate(store, aggregate, streamId, registry);
    const decided = aggregate.decide(state, command, { now: options.clock.now(), streamId, ...(options.decideContext as X) });
    if (decided.length === 0) return { streamId, events: [], domainEvents: [], state, version, position: null, attempts: attempt };
    const toAppend = toEventsToAppend(decided, options.context, { clock: options.clock, ids: options.ids, registry });
    try {
      const result = await store.append(streamId, toAppend, { expectedVersion: version === null ? "noStream" : version });
      const domainEvents = toAppend.map((e) => registry.parse(e.type, e.schemaVersion, e.data));
      const first = version === null ? 0n : version + 1n;
      return {
        streamId,
        events: toAppend.map((e, i) => ({ ...e, streamId, streamVersion: first + BigInt(i) })),
        domainEvents,
        state: domainEvents.reduce((s, e) => aggregate.evolve(s, e), state),
        version: result.nextExpectedVersion,
        position: result.position,
        attempts: attempt,
      };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      if (attempt > retries) {
        throw new DomainError("conflict", `${command.type} on ${streamId} lost a concurrent write after ${attempt} attempt(s): ${error.message}`, "expectedVersion");
      }
    }
  }
}
