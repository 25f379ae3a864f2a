// Checkpoints in PostgreSQL, in the event store's database (table `worker_checkpoints`, created
// if missing). Leadership is a session advisory lock held on one dedicated connection: a killed
// leader's session ends, its lock goes with it, and a standby takes over.
import type pg from "pg";
import { createPgPool, keepPoolAlive } from "@verdict/infra/pg";
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
}

export class PostgresCheckpointStore implements CheckpointStore {
  private readonly leases = new Map<string, pg.PoolClient>();
  private ready: Promise<void> | null = null;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly ownsPool: boolean,
  ) {}

  static async create(options: PostgresCheckpointStoreOptions): Promise<PostgresCheckpointStore> {
    if (!options.pool && !options.connectionString) throw new Error("PostgresCheckpointStore: set connectionString (DATABASE_URL) or pass a pool");
    const pool = keepPoolAlive(options.pool ?? createPgPool({ connectionString: options.connectionString, max: 3 }));
    const store = new PostgresCheckpointStore(pool, !options.pool);
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

  async acquire(name: string): Promise<boolean> {
    if (this.leases.has(name)) return true;
    const client = await this.pool.connect();
    try {
      const { rows } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_KEY}) AS ok`, [name]);
      if (rows[0]?.ok) {
        this.leases.set(name, client);
        return true;
      }
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    client.release();
    return false;
  }

  async release(name: string): Promise<void> {
    const client = this.leases.get(name);
    if (!client) return;
    this.leases.delete(name);
    try {
      await client.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`, [name]);
      client.release();
    } catch (error) {
      client.release(error as Error); // a broken session: destroying it frees the lock too
    }
  }

  async close(): Promise<void> {
    for (const name of [...this.leases.keys()]) await this.release(name);
    if (this.ownsPool) await this.pool.end();
  }
}
