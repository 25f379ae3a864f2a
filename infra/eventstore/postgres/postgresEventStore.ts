// The EventStore on PostgreSQL through `pg`: appends are one call of verdict_append (one round
// trip, one transaction); live subscribers are woken by LISTEN/NOTIFY on a dedicated connection,
// with polling as the fallback when that connection is down.
import pg from "pg";
import type { EventStore } from "../port.js";
import { migrateEventStore } from "../sql/migrator.js";
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
}

const CHANNEL = "verdict_events";
const RECONNECT_MS = 1_000;

export async function createPostgresEventStore(options: PostgresEventStoreOptions): Promise<EventStore> {
  if (!options.pool && !options.connectionString) {
    throw new Error("createPostgresEventStore: set connectionString (e.g. DATABASE_URL) or pass a pool");
  }
  const ownsPool = !options.pool;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10 });
  pool.on("error", () => undefined); // an idle client dropped by the server; the pool replaces it
  if (options.migrate !== false) await migratePool(pool);

  const runner: SqlRunner = {
    query: async <T>(sql: string, params?: unknown[]) => (await pool.query(sql, params)).rows as T[],
  };
  const wakeup = new Wakeup();
  const listener = new NotificationListener(pool, wakeup);
  const store = createSqlEventStore({
    ...options,
    runner,
    wakeup,
    onAppended: () => wakeup.notify(),
    close: async () => {
      await listener.stop();
      if (ownsPool) await pool.end();
    },
  });
  return {
    ...store,
    subscribeAll(subscribeOptions) {
      listener.start();
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

/** One LISTEN connection per store, started by the first subscriber and re-opened if it drops. */
class NotificationListener {
  #client: pg.PoolClient | null = null;
  #starting = false;
  #stopped = false;
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly wakeup: Wakeup,
  ) {}

  start(): void {
    if (this.#client || this.#starting || this.#stopped) return;
    this.#starting = true;
    void this.#connect();
  }

  async #connect(): Promise<void> {
    try {
      const client = await this.pool.connect();
      client.on("notification", () => this.wakeup.notify());
      client.on("error", () => this.#drop(client));
      await client.query(`LISTEN ${CHANNEL}`);
      if (this.#stopped) return client.release(true);
      this.#client = client;
      // Anything committed while we were not listening is picked up by this wake-up.
      this.wakeup.notify();
    } catch {
      this.#scheduleReconnect();
    } finally {
      this.#starting = false;
    }
  }

  #drop(client: pg.PoolClient): void {
    if (this.#client !== client) return;
    this.#client = null;
    client.release(true);
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#stopped || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.start();
    }, RECONNECT_MS);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = null;
    this.wakeup.notify();
    if (client) client.release(true);
  }
}
