// Checkpoints in PostgreSQL, in the event store's database (table `worker_checkpoints`, created
// if missing). Leadership is a session advisory lock held on one dedicated connection: a killed
// leader's session ends, its lock goes with it, and a standby takes over. A leader whose session
// the server ends (restart, pg_terminate_backend, network) is told through `acquire`'s `onLost`.
// A network that black-holes the session is found on both ends (infra/pg/settings.ts): the
// leader checks its session on a timer and gives the lead up when it does not answer, and the
// session asks the server for TCP keepalives, so the server ends it, and frees the lock for a
// standby, instead of keeping it until the operating system's keepalive (hours).
import type pg from "pg";
import {
  applyServerSettings,
  checkSession,
  createPgPool,
  destroyClient,
  keepPoolAlive,
  pgSettingsFromEnv,
  serverKeepaliveStatements,
  SESSION_CHECK_DEADLINE_INTERVALS,
  withSessionDeadline,
  type PgSettings,
  type SessionCheck,
} from "@verdict/infra/pg";
import { positionFromJson, positionToJson, type Checkpoint, type CheckpointStore } from "./checkpointStore.js";

// Two workers starting at once on a fresh database would race on CREATE TABLE IF NOT EXISTS
// (a duplicate pg_type row); the transaction-scoped advisory lock serialises them. Both
// statements go in one simple query, which PostgreSQL runs as one implicit transaction.
const CREATE = `SELECT pg_advisory_xact_lock(hashtextextended('verdict-worker-checkpoints-ddl', 0));
CREATE TABLE IF NOT EXISTS worker_checkpoints (
  name text PRIMARY KEY,
  position jsonb,
  state jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
)`;
const UPSERT = `INSERT INTO worker_checkpoints (name, position, state, updated_at) VALUES ($1, $2, $3, now())
  ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, state = EXCLUDED.state, updated_at = now()`;
const LOCK_KEY = "hashtextextended('verdict-dispatcher:' || $1, 0)";

export interface PostgresCheckpointStoreOptions {
  connectionString?: string;
  /** An existing pool; left open on close(). */
  pool?: pg.Pool;
  /** Connect timeout, keepalive and the lease's check (default: from the environment, VERDICT_PG_*). */
  settings?: PgSettings;
  /** The lock session's settings, sent before the lock is taken (default: the server's keepalive, serverKeepaliveStatements). */
  serverSettings?: readonly string[];
  /**
   * Told when the server refuses one of them (unknown parameter, permission): the lock is taken
   * without it (default: a warning on stderr, once per process).
   */
  onServerSettingRefused?(message: string): void;
}

/** A held lock: its client, and how to take this store's listeners off it. */
interface Lease {
  client: pg.PoolClient;
  detach(): void;
}

export class PostgresCheckpointStore implements CheckpointStore {
  private readonly leases = new Map<string, Lease>();
  private ready: Promise<void> | null = null;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly ownsPool: boolean,
    private readonly settings: PgSettings,
    private readonly serverSettings: readonly string[],
    private readonly onServerSettingRefused: ((message: string) => void) | undefined,
  ) {}

  static async create(options: PostgresCheckpointStoreOptions): Promise<PostgresCheckpointStore> {
    if (!options.pool && !options.connectionString) throw new Error("PostgresCheckpointStore: set connectionString (DATABASE_URL) or pass a pool");
    const settings = options.settings ?? pgSettingsFromEnv();
    const pool = options.pool ? keepPoolAlive(options.pool) : createPgPool({ connectionString: options.connectionString, max: 3 }, settings);
    const store = new PostgresCheckpointStore(pool, !options.pool, settings, options.serverSettings ?? serverKeepaliveStatements(settings), options.onServerSettingRefused);
    await store.migrate();
    return store;
  }

  private migrate(): Promise<void> {
    this.ready ??= this.pool.query(CREATE).then(() => undefined);
    return this.ready;
  }

  async load(name: string): Promise<Checkpoint | null> {
    const { rows } = await this.pool.query<{ position: unknown; state: Record<string, unknown> }>(
      "SELECT position, state FROM worker_checkpoints WHERE name = $1",
      [name],
    );
    if (rows.length === 0) return null;
    return { position: positionFromJson(rows[0].position), state: rows[0].state };
  }

  async save(name: string, checkpoint: Checkpoint): Promise<void> {
    const position = positionToJson(checkpoint.position);
    await this.pool.query(UPSERT, [name, position === null ? null : JSON.stringify(position), JSON.stringify(checkpoint.state)]);
  }

  /**
   * The lock is held by one checked-out client. pg takes the pool's `error` listener off a client
   * while it is checked out, so this one gets its own: without it, a session the server ends
   * (restart, pg_terminate_backend, network) raises an `error` nobody listens to and Node ends
   * the process. Already leading `name`, returns true and keeps the first `onLost`. While held,
   * the session is checked every VERDICT_PG_SESSION_CHECK_MS: one that does not answer within 3
   * times that is a loss too, found about 4 times that after it went silent (its socket is
   * destroyed, which also ends the session when the network is back).
   */
  async acquire(name: string, onLost?: (error: Error) => void): Promise<boolean> {
    if (this.leases.has(name)) return true;
    const client = await this.pool.connect();
    const lost = (error: Error): void => {
      if (this.leases.get(name)?.client !== client) return; // not (or no longer) this name's lease
      this.leases.delete(name);
      detach();
      client.release(error); // destroys the client; the pool's listener takes any later error
      onLost?.(error);
    };
    const onError = (error: Error): void => lost(error);
    const onEnd = (): void => lost(new Error("the session holding the leadership lock ended"));
    let check: SessionCheck | null = null;
    const detach = (): void => {
      check?.stop();
      client.off("error", onError);
      client.off("end", onEnd);
    };
    // Attached before the first query: the session may end while it runs, too.
    client.on("error", onError);
    client.on("end", onEnd);
    try {
      // Set before the lock is taken: the server must be able to end a session it cannot reach.
      // One a server refuses (unknown, not allowed) is skipped: leading without it beats never.
      // With a deadline: a pooled connection the network cut while idle answers nothing, and a
      // standby stuck here would never lead (nor say why) for as long as the OS allows.
      const deadlineMs = this.settings.sessionCheckMs * SESSION_CHECK_DEADLINE_INTERVALS;
      const { rows } = await withSessionDeadline(client, deadlineMs, "taking the leadership lock", async () => {
        await applyServerSettings(client, this.serverSettings, this.onServerSettingRefused);
        return client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_KEY}) AS ok`, [name]);
      });
      if (rows[0]?.ok) {
        this.leases.set(name, { client, detach });
        check = checkSession(client, { everyMs: this.settings.sessionCheckMs, onDead: lost });
        return true;
      }
    } catch (error) {
      detach();
      client.release(error as Error);
      throw error;
    }
    detach();
    client.release();
    return false;
  }

  async release(name: string): Promise<void> {
    const lease = this.leases.get(name);
    if (!lease) return; // never held, released already, or lost (its client is gone)
    this.leases.delete(name); // from here a dying session is not a loss: its listeners ignore it
    const { client, detach } = lease;
    try {
      // Known to be short: an unlock that does not answer in time is a session that is gone.
      await client.query({ text: `SELECT pg_advisory_unlock(${LOCK_KEY})`, values: [name], query_timeout: this.settings.sessionCheckMs } as pg.QueryConfig);
      detach();
      client.release();
    } catch (error) {
      detach();
      client.release(error as Error); // a broken session: destroying it frees the lock too
      destroyClient(client); // end() would wait on a network that answers nothing
    }
  }

  async close(): Promise<void> {
    for (const name of [...this.leases.keys()]) await this.release(name);
    if (this.ownsPool) await this.pool.end();
  }
}
