// Progress across processes: NOTIFY on the read database, one LISTEN connection per subscriber
// process. PostgreSQL only (PGlite does not carry notifications across connections; embedded
// mode uses the in-process bus). Payloads stay far below NOTIFY's 8,000-byte limit: ids, counts
// and a short latest result; subscribers re-read details from the read models.
//
// The LISTEN connection is re-opened (after `reconnectMs`) whenever it drops: a database restart
// or a terminated session costs the subscribers nothing but what was published while it was
// down. NOTIFY is not stored, so those messages are lost; each subscriber's `onGap` is called once
// LISTEN is back, to re-read the run's progress from the read models (the API does).
import { createPgPool, PgListener, pgSettingsFromEnv, type PgSettings } from "@verdict/infra/pg";
import type { ProgressBus, ProgressGapListener, ProgressListener, RunProgress } from "./progress.js";

export const PROGRESS_CHANNEL = "verdict_run_progress";
const MAX_TEXT = 200;

export interface PostgresProgressBusOptions {
  url: string;
  channel?: string;
  /** Delay before re-opening a dropped LISTEN connection (default 1,000 ms). */
  reconnectMs?: number;
  /** Connect timeout, keepalive, the LISTEN session's check (default: from the environment, VERDICT_PG_*; infra/pg). */
  settings?: PgSettings;
}

function clip(value: string | null): string | null {
  return value === null || value.length <= MAX_TEXT ? value : value.slice(0, MAX_TEXT);
}

export function progressPayload(progress: RunProgress): string {
  const latest = progress.latest_result;
  return JSON.stringify({
    ...progress,
    latest_result: latest && { ...latest, scenario_key: clip(latest.scenario_key), model_label: clip(latest.model_label), fault: clip(latest.fault) },
  });
}

export function createPostgresProgressBus(options: PostgresProgressBusOptions): ProgressBus {
  const channel = options.channel ?? PROGRESS_CHANNEL;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`progress channel must be a lowercase SQL identifier (got "${channel}")`);
  const settings = options.settings ?? pgSettingsFromEnv();
  const publisher = createPgPool({ connectionString: options.url, max: 1 }, settings);
  const listeners = new Map<string, Set<ProgressListener>>();
  const gapListeners = new Set<{ onGap: ProgressGapListener }>(); // one entry a subscription
  const listenPool = createPgPool({ connectionString: options.url, max: 1 }, settings);
  // Opened by the first subscriber (a publishing projector never listens).
  const listener = new PgListener({
    pool: listenPool,
    settings,
    channel,
    reconnectMs: options.reconnectMs,
    onNotification: deliver,
    onListening(again) {
      if (!again) return;
      for (const { onGap } of [...gapListeners]) {
        try {
          onGap();
        } catch {
          // A listener's failure is its own.
        }
      }
    },
  });

  function deliver(payload: string | undefined): void {
    if (!payload) return;
    let progress: RunProgress;
    try {
      progress = JSON.parse(payload) as RunProgress;
    } catch {
      return; // not ours: someone else NOTIFYing on the channel
    }
    for (const fn of [...(listeners.get(progress.run_id) ?? [])]) {
      try {
        fn(progress);
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  return {
    async publish(progress) {
      await publisher.query("SELECT pg_notify($1, $2)", [channel, progressPayload(progress)]);
    },
    async subscribe(runId, fn, onGap) {
      await listener.listen();
      const set = listeners.get(runId) ?? new Set();
      set.add(fn);
      listeners.set(runId, set);
      const gap = onGap && { onGap };
      if (gap) gapListeners.add(gap);
      return async () => {
        set.delete(fn);
        if (set.size === 0) listeners.delete(runId);
        if (gap) gapListeners.delete(gap);
      };
    },
    async close() {
      listeners.clear();
      gapListeners.clear();
      await listener.stop();
      await Promise.all([listenPool.end(), publisher.end()]);
    },
  };
}
