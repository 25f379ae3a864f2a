// The EventStore on PostgreSQL through `pg`: appends are one call of verdict_append (one round
// trip, one transaction); live subscribers are woken by LISTEN/NOTIFY on a dedicated connection,
// with polling as the fallback when that connection is down or a wake-up is lost.
//
// The NOTIFY is sent after the append commits, not inside it: PostgreSQL holds a global lock
// from a notifying transaction's pre-commit through its WAL flush, so NOTIFY inside appends
// serializes all of them (measured: 8 writers at 0.3x of plain INSERTs). After-commit wake-ups
// are coalesced (one in flight, at most one queued, paced 5 ms apart under load) and sent with synchronous_commit off, so
// they hold that lock only briefly and never wait for a disk flush. A lost wake-up (crash
// between commit and notify) only delays delivery to the next poll.
import type pg from "pg";
import { createPgPool, isConnectionLoss, keepPoolAlive, PgListener, pgSettingsFromEnv, type PgSettings } from "../../pg/index.js";
import type { EventStore } from "../port.js";
import { migrateEventStore } from "../sql/migrator.js";
import { refuseLogFromAnotherServer } from "./restoredLog.js";
import { createSqlEventStore, type SqlRunner } from "../sql/sqlEventStore.js";
import type { SubscriptionTuning } from "../subscription.js";
import { Wakeup } from "../wakeup.js";

export interface PostgresEventStoreOptions extends SubscriptionTuning {
  connectionString?: string;
  /** An existing pool; the store then leaves it open on close(). */
  pool?: pg.Pool;
  /** Pool size when the store creates its own pool. */
  maxConnections?: number;
  /** Apply the schema migration on start (default true). */
  migrate?: boolean;
  /** Connect timeout, keepalive, the LISTEN session's check (default: from the environment, VERDICT_PG_*; infra/pg). */
  settings?: PgSettings;
}

const CHANNEL = "verdict_events";
const NOTIFY_SQL = `SELECT set_config('synchronous_commit', 'off', true), pg_notify('${CHANNEL}', '')`;
const NOTIFY_PACE_MS = 5;
const APPEND_BATCHES_IN_FLIGHT = 4;

export async function createPostgresEventStore(options: PostgresEventStoreOptions): Promise<EventStore> {
  if (!options.pool && !options.connectionString) {
    throw new Error("createPostgresEventStore: set connectionString (e.g. DATABASE_URL) or pass a pool");
  }
  const ownsPool = !options.pool;
  // An idle client dropped by the server is replaced by the pool (also on a pool passed in).
  const settings = options.settings ?? pgSettingsFromEnv();
  const pool = options.pool ? keepPoolAlive(options.pool) : createPgPool({ connectionString: options.connectionString, max: options.maxConnections ?? 10 }, settings);
  // Before migrating: a restored log is refused as it was found, nothing written to it.
  await refuseLogFromAnotherServer(async (sql) => (await pool.query(sql)).rows).catch(async (error: unknown) => {
    if (ownsPool) await pool.end();
    throw error;
  });
  if (options.migrate !== false) await migratePool(pool);

  // Named (prepared) statements: each connection parses and plans a statement once.
  const names = new Map<string, string>();
  const runner: SqlRunner = {
    query: async <T>(sql: string, params?: unknown[]) => {
      let name = names.get(sql);
      if (!name) names.set(sql, (name = `verdict_es_${names.size + 1}`));
      return (await pool.query({ name, text: sql, values: params })).rows as T[];
    },
  };
  const wakeup = new Wakeup();
  // One LISTEN connection per store, opened by the first subscriber and re-opened if it drops.
  // Anything committed while it was not listening is picked up by the wake-up once it listens.
  const listener = new PgListener({ pool, settings, channel: CHANNEL, onNotification: () => wakeup.notify(), onListening: () => wakeup.notify() });
  const notifier = new CommitNotifier(pool);
  // Its page reads with their bytes are for the PGlite log tail; this store does not hand them out.
  const { readPage: _readPage, ...store } = createSqlEventStore({
    ...options,
    runner,
    wakeup,
    onAppended: () => {
      wakeup.notify();
      notifier.poke();
    },
    // Appends made while others are committing go together in one transaction: one WAL flush
    // for the batch instead of one each. A few batches in flight keep the pool busy.
    coalesce: { maxInFlight: APPEND_BATCHES_IN_FLIGHT },
    // A subscriber's read cut off by a terminated session is read again on a new connection.
    retriableRead: isConnectionLoss,
    close: async () => {
      await notifier.idle();
      await listener.stop();
      wakeup.notify();
      if (ownsPool) await pool.end();
    },
  });
  return {
    ...store,
    subscribeAll(subscribeOptions) {
      listener.listen().catch(() => undefined); // retried by the listener; subscribers poll meanwhile
      return store.subscribeAll(subscribeOptions);
    },
  };
}

/** Runs the event store migration on one connection of the pool. */
export async function migratePool(pool: pg.Pool): Promise<string[]> {
  const client = await pool.connect();
  try {
    return await migrateEventStore({
      exec: async (sql) => void (await client.query(sql)),
      query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
    });
  } finally {
    client.release();
  }
}

/** Sends coalesced after-commit wake-ups: one NOTIFY in flight, at most one more queued. */
class CommitNotifier {
  #sending: Promise<void> | null = null;
  #again = false;

  constructor(private readonly pool: pg.Pool) {}

  poke(): void {
    if (this.#sending) {
      this.#again = true;
      return;
    }
    this.#sending = this.#send();
  }

  async #send(): Promise<void> {
    do {
      this.#again = false;
      // A failed wake-up is not an error of the append: subscribers poll as a fallback.
      await this.pool.query(NOTIFY_SQL).catch(() => undefined);
      // Under a stream of appends, one wake-up per pace interval is enough for every subscriber
      // and leaves the connections and the CPU to the appends.
      if (this.#again) await new Promise((resolve) => setTimeout(resolve, NOTIFY_PACE_MS));
    } while (this.#again);
    this.#sending = null;
  }

  async idle(): Promise<void> {
    await this.#sending;
  }
}
