// Progress across processes: NOTIFY on the read database, one LISTEN connection per subscriber
// process. PostgreSQL only (PGlite does not carry notifications across connections; embedded
// mode uses the in-process bus). Payloads stay far below NOTIFY's 8,000-byte limit: ids, counts
// and a short latest result; subscribers re-read details from the read models.
import type pg from "pg";
import { loadPg } from "@verdict/infra/lazy";
import type { ProgressBus, ProgressListener, RunProgress } from "./progress.js";

export const PROGRESS_CHANNEL = "verdict_run_progress";
const MAX_TEXT = 200;

export interface PostgresProgressBusOptions {
  url: string;
  channel?: string;
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
  const publisher = new (loadPg().Pool)({ connectionString: options.url, max: 1 });
  const listeners = new Map<string, Set<ProgressListener>>();
  let listener: Promise<pg.Client> | null = null;

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

  function listen(): Promise<pg.Client> {
    listener ??= (async () => {
      const client = new (loadPg().Client)({ connectionString: options.url });
      await client.connect();
      client.on("notification", (message) => {
        if (message.channel === channel) deliver(message.payload);
      });
      await client.query(`LISTEN ${channel}`);
      return client;
    })();
    return listener;
  }

  return {
    async publish(progress) {
      await publisher.query("SELECT pg_notify($1, $2)", [channel, progressPayload(progress)]);
    },
    async subscribe(runId, fn) {
      await listen();
      const set = listeners.get(runId) ?? new Set();
      set.add(fn);
      listeners.set(runId, set);
      return async () => {
        set.delete(fn);
        if (set.size === 0) listeners.delete(runId);
      };
    },
    async close() {
      listeners.clear();
      const client = listener;
      listener = null;
      if (client) await (await client).end();
      await publisher.end();
    },
  };
}
