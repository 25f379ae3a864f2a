// What a run about to be written meters (reference-platform #38, §3 rule 20): a started run
// (engine or external) the pairs it will replay, `execution` x scenarios x models, counted before
// any replay runs, so a failing replay is counted too; a newly stored report one
// `evaluation_report`. Decided and appended before the run's other streams are written, from the
// tenant's usage stream for the month of the command's clock (taken once per command).
//
// Cost: a month's stream grows by one event per run, and every start needs its state. So this
// process keeps each usage stream's folded state with the version it was folded at (usageCache)
// and a start reads only the events appended since; folding is O(1) per event (MeterLog). The
// meter is still appended with the exact version of that read, so concurrent starts never pass a
// quota: the cache only saves reading and folding again what was already read. It relies on the
// store being append-only (no adapter deletes or rewrites a stream); a cached version the stream
// does not reach shows as a race lost with nothing new to read, and the stream is read whole.
//
// Contention: every start of a tenant meters one stream. Starts in this process take turns on it
// (one at a time per stream: read what is new, decide, append), so they never lose races to one
// another; a race lost to another process is decided again here, the meter alone (not the
// evaluation, run and agent), METER_RETRIES times after short jittered pauses. Should that be
// spent, the start is refused UNAVAILABLE (retryable), having written nothing.
import type { EventStore } from "../../ports/eventStore.js";
import { WrongExpectedVersionError } from "../../ports/eventStore.js";
import { DomainError } from "../../events/domainError.js";
import type { DomainEvent, EventRegistry } from "../../events/registry.js";
import { eventRegistry } from "../../events/registry.js";
import { usageMonth, usageStream } from "../../events/streams.js";
import type { UsageKind } from "../../events/usageEvents.js";
import { contendedPauses } from "../contention.js";
import { appendDecision, decideEvents, forEachStreamPage, type HandledCommand, type HandleOptions } from "../handleCommand.js";
import type { Plan } from "./plan.js";
import { usageAggregate, type UsageState } from "./usageAggregate.js";

/** Races on the usage stream lost to other processes that a meter is decided again after. */
export const METER_RETRIES = 12;
/**
 * Usage streams whose folded state a process keeps per store, the least recently used dropped
 * (read whole again on its next start): a stream of 20,000 meters holds a few MB.
 */
const CACHED_STREAMS = 200;

type Loaded = { state: UsageState; version: bigint | null };

const caches = new WeakMap<EventStore, Map<string, Loaded>>();
const turns = new WeakMap<EventStore, Map<string, Promise<unknown>>>();

function cacheOf(store: EventStore): Map<string, Loaded> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new Map()));
  return cache;
}

function remember(store: EventStore, streamId: string, loaded: Loaded): void {
  const cache = cacheOf(store);
  cache.delete(streamId);
  cache.set(streamId, loaded);
  if (cache.size > CACHED_STREAMS) cache.delete(cache.keys().next().value as string);
}

/**
 * The usage stream's state now: the cached state caught up with the events after its version
 * (all of them when nothing is cached, or `whole`). Streams are append-only, so a state folded
 * at version v stays true at v.
 */
async function loadUsage(store: EventStore, streamId: string, registry: EventRegistry, whole: boolean): Promise<Loaded> {
  const cached = whole ? undefined : cacheOf(store).get(streamId);
  let state = cached?.state ?? usageAggregate.initialState();
  let version: bigint | null = cached?.version ?? null;
  await forEachStreamPage(store, streamId, (page) => {
    for (let i = 0; i < page.length; i++) state = usageAggregate.evolve(state, registry.parseRecorded(page[i]));
    version = page[page.length - 1].streamVersion;
  }, "forwards", version === null ? "start" : version + 1n);
  const loaded = { state, version };
  remember(store, streamId, loaded);
  return loaded;
}

/** Runs `work` once the stream's earlier turns in this process are over. */
async function inTurn<T>(store: EventStore, streamId: string, work: () => Promise<T>): Promise<T> {
  let queue = turns.get(store);
  if (!queue) turns.set(store, (queue = new Map()));
  const before = queue.get(streamId) ?? Promise.resolve();
  const mine = before.then(work, work);
  const settled = mine.then(() => undefined, () => undefined);
  queue.set(streamId, settled);
  try {
    return await mine;
  } finally {
    if (queue.get(streamId) === settled) queue.delete(streamId);
  }
}

/** The kind and quantity the run's first event stands for, or null when it writes none (a duplicate import). */
function meteredBy(runEvents: readonly DomainEvent[]): { kind: UsageKind; quantity: number } | null {
  const first = runEvents[0];
  if (first?.type === "RunStarted") return { kind: "execution", quantity: first.data.scenarios.length * first.data.models.length };
  if (first?.type === "ReportImported") return { kind: "evaluation_report", quantity: 1 };
  return null;
}

interface MeterRequest {
  tenant: string;
  run_id: string;
  evaluation_id: string;
  /** The command's time, read once: its month is the stream metered, however many tries it takes. */
  now: Date;
  runEvents: readonly DomainEvent[];
}

/** The error a start gets when other processes kept metering the month before it could. */
function meterContended(command: { type: string }): DomainError {
  return new DomainError("unavailable", `${command.type} could not be metered: too many runs were being started for this tenant at once; retry it`);
}

/**
 * Decides the meter for a run whose events are `runEvents` and appends it, before anything else
 * of the run is written: the usage after it, or null when the run writes none. Refused (nothing
 * written) by the plan; a run id already metered for its kind this month meters nothing again.
 */
export async function meterRun(
  store: EventStore,
  command: { type: string },
  request: MeterRequest,
  options: Pick<HandleOptions<never>, "clock" | "ids" | "context" | "registry"> & { plan?: Plan },
): Promise<HandledCommand<UsageState> | null> {
  const meter = meteredBy(request.runEvents);
  if (!meter) return null;
  const registry = options.registry ?? eventRegistry;
  const month = usageMonth(request.now);
  const streamId = usageStream(request.tenant, month);
  const decide = { type: "MeterUsage" as const, ...meter, tenant: request.tenant, run_id: request.run_id, evaluation_id: request.evaluation_id, month };
  const pause = contendedPauses(`meter:${request.run_id}`);
  return inTurn(store, streamId, async () => {
    let lostAt: bigint | null | undefined;
    for (let attempt = 1; ; attempt++) {
      let loaded = await loadUsage(store, streamId, registry, false);
      // Lost at this very version and nothing new read: the cached state is not the stream's.
      if (lostAt !== undefined && loaded.version === lostAt) loaded = await loadUsage(store, streamId, registry, true);
      const decision = decideEvents(usageAggregate, loaded.state, decide, { now: request.now, streamId, plan: options.plan }, options);
      try {
        const appended = await appendDecision(store, usageAggregate, streamId, loaded, decision, attempt);
        if (appended.events.length > 0) remember(store, streamId, { state: appended.state, version: appended.version });
        return appended;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        if (attempt > METER_RETRIES) throw meterContended(command);
        lostAt = loaded.version;
        await pause(attempt);
      }
    }
  });
}
