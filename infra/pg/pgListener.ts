// One LISTEN connection that survives a database restart or a terminated session (see index.ts
// for why every pg connection the apps open needs a listener for its errors). A network that
// black-holes the connection is found on both ends: the session is checked on a timer (a LISTEN
// that silently hears nothing any more would leave subscribers without a word), and it asks the
// server for TCP keepalives so the server ends it too (settings.ts).
import type pg from "pg";
import { checkSession, destroyClient, SESSION_CHECK_DEADLINE_INTERVALS, withSessionDeadline, type SessionCheck } from "./sessionCheck.js";
import { applyServerSettings } from "./serverSettings.js";
import { pgSettingsFromEnv, serverKeepaliveStatements, type PgSettings } from "./settings.js";

export interface PgListenerOptions {
  /** Where the LISTEN connection comes from: it keeps one client of this pool checked out. */
  pool: pg.Pool;
  /** A lowercase SQL identifier (it is written into `LISTEN`). */
  channel: string;
  onNotification(payload: string | undefined): void;
  /**
   * Called each time LISTEN is in place, `again` after the connection had been lost. What was
   * NOTIFYed while nobody listened is lost: this is the moment to re-read what it announces.
   */
  onListening?(again: boolean): void;
  /** Delay before reconnecting after a drop or a failed attempt (default 1,000 ms). */
  reconnectMs?: number;
  /** Keepalive and the session's check (default: from the environment, VERDICT_PG_*). */
  settings?: Pick<PgSettings, "keepAliveIdleMs" | "sessionCheckMs">;
  /** The session's settings, sent before LISTEN (default: the server's keepalive, serverKeepaliveStatements). */
  serverSettings?: readonly string[];
  /**
   * Told when the server refuses one of them (unknown parameter, permission): LISTEN goes on
   * without it (default: a warning on stderr, once per process).
   */
  onServerSettingRefused?(message: string): void;
}

const RECONNECT_MS = 1_000;

/**
 * One LISTEN connection, opened on demand and re-opened after a delay whenever it drops (server
 * restart, pg_terminate_backend, network) until `stop()`. A failed attempt rejects its callers
 * and is retried in the background; it is never remembered as the answer for later callers.
 */
export class PgListener {
  #client: pg.PoolClient | null = null;
  #connecting: Promise<void> | null = null;
  #listenedBefore = false;
  #stopped = false;
  #timer: NodeJS.Timeout | null = null;
  #check: SessionCheck | null = null;
  readonly #settings: Pick<PgSettings, "keepAliveIdleMs" | "sessionCheckMs">;

  constructor(private readonly options: PgListenerOptions) {
    this.#settings = options.settings ?? pgSettingsFromEnv();
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(options.channel)) {
      throw new Error(`PgListener: channel must be a lowercase SQL identifier (got "${options.channel}")`);
    }
  }

  /** Resolves once LISTEN is in place; rejects when this attempt failed (a retry is scheduled). */
  listen(): Promise<void> {
    if (this.#stopped) return Promise.reject(new Error("PgListener: stopped"));
    if (this.#client) return Promise.resolve();
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  /** True while the LISTEN connection is up. */
  get listening(): boolean {
    return this.#client !== null;
  }

  async #connect(): Promise<void> {
    let client: pg.PoolClient | null = null;
    try {
      client = await this.options.pool.connect();
      const own = client;
      // Both stay attached for the client's whole life: a late `error` from a client already let
      // go must find a listener too.
      own.on("error", () => this.#drop(own));
      own.on("end", () => this.#drop(own));
      own.on("notification", (message) => {
        if (message.channel === this.options.channel) this.options.onNotification(message.payload);
      });
      // The server's keepalive for this session, one statement each: a refused setting is
      // skipped. LISTEN is a statement of its own, and its failure fails this attempt. With the
      // deadline a leader's lock takes: a pooled connection the network cut while idle answers nothing.
      const deadlineMs = this.#settings.sessionCheckMs * SESSION_CHECK_DEADLINE_INTERVALS;
      await withSessionDeadline(own, deadlineMs, `listening on ${this.options.channel}`, async () => {
        await applyServerSettings(own, this.options.serverSettings ?? serverKeepaliveStatements(this.#settings), this.options.onServerSettingRefused);
        await own.query(`LISTEN ${this.options.channel}`);
      });
    } catch (error) {
      client?.release(true);
      if (client) destroyClient(client);
      this.#scheduleReconnect();
      throw error;
    }
    if (this.#stopped) {
      client.release(true);
      return;
    }
    this.#client = client;
    const own = client;
    this.#check = checkSession(own, { everyMs: this.#settings.sessionCheckMs, onDead: () => this.#drop(own) });
    const again = this.#listenedBefore;
    this.#listenedBefore = true;
    this.options.onListening?.(again);
  }

  #drop(client: pg.PoolClient): void {
    if (this.#client !== client) return;
    this.#client = null;
    this.#check?.stop();
    this.#check = null;
    client.release(true);
    destroyClient(client); // end() would wait on a network that answers nothing
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#stopped || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.listen().catch(() => undefined); // a failed attempt schedules the next one
    }, this.options.reconnectMs ?? RECONNECT_MS);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    // An attempt still in flight lets its client go itself when it sees #stopped.
    const client = this.#client;
    this.#client = null;
    this.#check?.stop();
    this.#check = null;
    client?.release(true);
  }
}
