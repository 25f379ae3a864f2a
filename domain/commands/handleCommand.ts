// Command handling: read the stream, fold it, decide, append with the expected version the
// read saw ("no stream" for a new stream, else the exact version). A lost race is retried a
// bounded number of times when the aggregate allows it for that command.
import type { EventStore, EventToAppend, LogPosition, RecordedEvent, StreamPage } from "../ports/eventStore.js";
import { WrongExpectedVersionError } from "../ports/eventStore.js";
import type { Clock, IdGenerator } from "../events/clock.js";
import { DomainError } from "../events/domainError.js";
import type { EventContext } from "../events/metadata.js";
import { eventRegistry, type DomainEvent, type EventRegistry } from "../events/registry.js";
import { toEventsToAppend } from "../events/toAppend.js";
import { parseOrThrow } from "../events/zodIssues.js";
import { fold, type Aggregate, type DecideContext } from "./aggregate.js";

export const DEFAULT_RETRIES = 3;
const PAGE = 1000;

export interface HandleOptions<X> {
  clock: Clock;
  ids: IdGenerator;
  /** Tenant, actor, correlation and causation for the appended events' metadata. */
  context: EventContext;
  /** Extra state the decider reads (e.g. the run a result belongs to). */
  decideContext?: X;
  /** Version conflicts retried at most this many times (default 3; startRun, importReport and recordAgentRelease, which race on one stream: CONTENDED_RETRIES); 0 never retries. */
  retries?: number;
  /** Awaited after the `lost`th lost race, before the command is decided again (contention.ts's contendedPauses); none by default. */
  pause?: (lost: number) => Promise<void>;
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

/**
 * Hands a stream's events to `visit` page by page (from its start forwards, or from its end
 * backwards), reading each page once `visit` returned from the one before; `visit` returns false
 * to stop there. A page holds at most PAGE events and fewer once they reach the store's byte
 * budget (a catalog's events may hold 4 MB of JSON each): a page cut short that way says so
 * (`cut`), and the next is read; a shorter page that is not cut is the stream's end, so a small
 * stream (the usual command's) costs one query. `start`: the first version to visit (default the
 * stream's first, or last backwards).
 *
 * A callback rather than an async iterator: a for await loop keeps the last page it was handed
 * until the next one arrives (V8 leaves it in the loop's registers), so a fold over it held two
 * pages, and here nothing holds a page while the next is read.
 */
export async function forEachStreamPage(
  store: EventStore,
  streamId: string,
  visit: (page: readonly RecordedEvent[]) => boolean | void,
  direction: "forwards" | "backwards" = "forwards",
  start: bigint | "start" | "end" = direction === "forwards" ? "start" : "end",
): Promise<void> {
  let from: bigint | "start" | "end" = start;
  let page: StreamPage = await store.readStream(streamId, { from, direction, limit: PAGE });
  while (page.length > 0) {
    const last = page[page.length - 1].streamVersion;
    const ended = page.length < PAGE && !page.cut;
    if (visit(page) === false) return;
    page = []; // let go of this page before the next is read
    if (ended || (direction === "backwards" && last === 0n)) return;
    from = direction === "forwards" ? last + 1n : last - 1n;
    page = await store.readStream(streamId, { from, direction, limit: PAGE });
  }
}

/**
 * Reads a whole stream forwards into one array. Only for callers that need every event at once
 * (a run's history, a test's view of a stream): a fold goes through loadAggregate or
 * forEachStreamPage, which hold one page at a time.
 */
export async function readWholeStream(store: EventStore, streamId: string): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  await forEachStreamPage(store, streamId, (page) => void all.push(...page));
  return all;
}

/**
 * Loads a stream and folds it: the aggregate's current state and the version it was read at.
 * It folds each page before reading the next, holding one page of events besides the state (a
 * catalog imported on every commit is hundreds of events of up to 4 MB of JSON each).
 */
export async function loadAggregate<S, C extends { type: string }, X>(
  store: EventStore,
  aggregate: Aggregate<S, C, X>,
  streamId: string,
  registry: EventRegistry = eventRegistry,
): Promise<{ state: S; version: bigint | null }> {
  let state = aggregate.initialState();
  let version: bigint | null = null;
  await forEachStreamPage(store, streamId, (page) => {
    // By index: a `for of` binding would keep the page's last event until the next page is read.
    for (let i = 0; i < page.length; i++) state = aggregate.evolve(state, registry.parseRecorded(page[i]));
    version = page[page.length - 1].streamVersion;
  });
  return { state, version };
}

/** A decision ready for the store: the events as they will be appended, and the same events typed. */
export interface Decision {
  toAppend: EventToAppend[];
  domainEvents: DomainEvent[];
}

/**
 * Decides `command` on `state` and encodes the events as the store will take them. Everything
 * the domain refuses (the decider's rules, text a database cannot store, an event over the size
 * limit) is refused here, before anything is written.
 */
export function decideEvents<S, C extends { type: string }, X>(
  aggregate: Aggregate<S, C, X>,
  state: S,
  command: C,
  context: DecideContext & X,
  options: Pick<HandleOptions<X>, "clock" | "ids" | "context" | "registry">,
): Decision {
  const registry = options.registry ?? eventRegistry;
  const decided = aggregate.decide(state, command, context);
  const toAppend = toEventsToAppend(decided, options.context, { clock: options.clock, ids: options.ids, registry });
  return { toAppend, domainEvents: toAppend.map((e) => registry.parse(e.type, e.schemaVersion, e.data)) };
}

/**
 * Appends a decision to the stream it was decided on, expecting the version that stream was read
 * at; nothing to append answers the state as it was. A lost race throws WrongExpectedVersionError.
 */
export async function appendDecision<S, C extends { type: string }, X>(
  store: EventStore,
  aggregate: Aggregate<S, C, X>,
  streamId: string,
  loaded: { state: S; version: bigint | null },
  decision: Decision,
  attempts: number,
): Promise<HandledCommand<S>> {
  const { state, version } = loaded;
  if (decision.toAppend.length === 0) return { streamId, events: [], domainEvents: [], state, version, position: null, attempts };
  const result = await store.append(streamId, decision.toAppend, { expectedVersion: version === null ? "noStream" : version });
  const first = version === null ? 0n : version + 1n;
  return {
    streamId,
    events: decision.toAppend.map((e, i) => ({ ...e, streamId, streamVersion: first + BigInt(i) })),
    domainEvents: decision.domainEvents,
    state: fold(aggregate, decision.domainEvents, state),
    version: result.nextExpectedVersion,
    position: result.position,
    attempts,
  };
}

/** The error a command gets once its retries for version conflicts are spent. */
export function lostRace(command: { type: string }, streamId: string, attempts: number, error: Error): DomainError {
  return new DomainError("conflict", `${command.type} on ${streamId} lost a concurrent write after ${attempts} attempt(s): ${error.message}`, "expectedVersion");
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
    const loaded = await loadAggregate(store, aggregate, streamId, registry);
    const decision = decideEvents(aggregate, loaded.state, command, { now: options.clock.now(), streamId, ...(options.decideContext as X) }, options);
    try {
      return await appendDecision(store, aggregate, streamId, loaded, decision, attempt);
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      if (attempt > retries) throw lostRace(command, streamId, attempt, error);
      await options.pause?.(attempt);
    }
  }
}

/**
 * Refuses `input` as handleCommand would on the stream as it is now (the command's schema, the
 * decider's rules, what the store cannot hold), appending nothing: a preview that says yes only
 * to what the real command would take.
 */
export async function checkCommand<S, C extends { type: string }, X>(
  store: EventStore,
  aggregate: Aggregate<S, C, X>,
  streamId: string,
  input: unknown,
  options: HandleOptions<X>,
): Promise<void> {
  const command = parseOrThrow(aggregate.commandSchema, input, "command is invalid");
  const loaded = await loadAggregate(store, aggregate, streamId, options.registry ?? eventRegistry);
  decideEvents(aggregate, loaded.state, command, { now: options.clock.now(), streamId, ...(options.decideContext as X) }, options);
}
