// `verdict start` runs the worker, the projector and the API on ONE event loop. A replay job is a
// chain of promises that never waits on I/O (PGlite answers in-process), so thirty-odd jobs in
// flight kept the loop to themselves: the projector, the API and the progress subscribers waited
// for the whole run. The worker is paced instead:
//   - after a slice of `sliceMs` of replay jobs it lets the loop handle I/O (setImmediate); the
//     jobs that pause resume together, so the SQL stores still send their appends as one, and
//   - it waits while the projector trails its appends by more than `maxLag` (bounded lag), so
//     progress follows the results and a mutation waiting for its projection is not queued
//     behind the whole run.
// Pacing never blocks for good: when the projector does not catch up within `waitMs` (stopped,
// failing, or a slow rebuild), the worker goes on. The lag is a matter of speed, not correctness.
import { setImmediate as nextTurn } from "node:timers/promises";
import type { EventStore, LogPosition } from "@verdict/domain";
import { comparePositions } from "@verdict/infra/eventstore";

export interface ProjectionTracker {
  readonly committed: LogPosition | null;
  committedUpTo(position: LogPosition, timeoutMs?: number): Promise<void>;
}

interface ProjectionPacing {
  /** The store for the worker: the same store, remembering where its appends landed. */
  store: EventStore;
  /** The worker's `pace` option. */
  pace(): Promise<void>;
}

/**
 * Replay jobs the embedded worker takes at once per agent replay allowed (startWorker's
 * jobsPerReplaySlot; 8 elsewhere): 64 at the default concurrency, so one burst's append is on
 * its way while the next burst replays. A 1,000 x 3 run: ~1,200-1,450 results/s at 8 (with a
 * lag of 96) against ~1,600-1,650 at 16 (alternating runs, docs/performance-log.md "Session 20").
 * The agent still sees no more replays at once than the configured concurrency.
 */
export const EMBEDDED_JOBS_PER_REPLAY_SLOT = 16;

/**
 * Appends (a pair is one append) the projector may trail the worker by. Room for about three of
 * the worker's append bursts (64 pairs each at the default concurrency), so the projector can
 * take two in one gathered transaction (EMBEDDED_PROJECTOR_GATHER_MS) while the worker goes on.
 * Progress still reaches a subscriber within ~50 ms at p95.
 */
const DEFAULT_MAX_LAG = 192;

/**
 * The embedded projector's gatherMs: a batch waits up to this long for the worker's next append
 * burst. Once each burst went out as one append (sql/coalescer.ts), the projector took every
 * burst as a transaction of its own: 94 for a 1,000 x 3 run, ~53 with this.
 */
export const EMBEDDED_PROJECTOR_GATHER_MS = 10;

/** How long replay jobs may keep the event loop before they let I/O in. */
const DEFAULT_SLICE_MS = 10;

export function paceByProjection(store: EventStore, projector: ProjectionTracker, options: { maxLag?: number; waitMs?: number; sliceMs?: number } = {}): ProjectionPacing {
  const maxLag = options.maxLag ?? DEFAULT_MAX_LAG;
  const waitMs = options.waitMs ?? 2_000;
  const sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
  let sliceStarted = performance.now();
  let turn: Promise<void> | null = null;

  function nextSlice(): Promise<void> {
    turn ??= nextTurn().then(() => {
      turn = null;
      sliceStarted = performance.now();
    });
    return turn;
  }
  // Positions of the worker's appends the projector has not committed yet, oldest first.
  const unprojected: LogPosition[] = [];

  function dropProjected(): void {
    const committed = projector.committed;
    if (!committed) return;
    let projected = 0;
    while (projected < unprojected.length && comparePositions(unprojected[projected], committed) <= 0) projected += 1;
    if (projected > 0) unprojected.splice(0, projected);
  }

  const paced: EventStore = {
    append: async (streamId, events, appendOptions) => {
      const result = await store.append(streamId, events, appendOptions);
      unprojected.push(result.position);
      return result;
    },
    readStream: (streamId, readOptions) => store.readStream(streamId, readOptions),
    readAll: (readOptions) => store.readAll(readOptions),
    subscribeAll: (subscribeOptions) => store.subscribeAll(subscribeOptions),
    streamVersion: (streamId) => store.streamVersion(streamId),
    lastPosition: () => store.lastPosition(),
    close: () => store.close(),
  };

  return {
    store: paced,
    async pace() {
      if (turn || performance.now() - sliceStarted >= sliceMs) await nextSlice();
      dropProjected();
      if (unprojected.length <= maxLag) return;
      await projector.committedUpTo(unprojected[unprojected.length - maxLag - 1], waitMs).catch(() => undefined);
      dropProjected();
    },
  };
}
