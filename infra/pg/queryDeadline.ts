// Every ordinary query has a deadline (VERDICT_PG_QUERY_TIMEOUT_MS, default 60 s; 0: none), on
// both ends of the connection, because each end alone misses a case:
//
// - The server's statement_timeout (and idle_in_transaction_session_timeout), set on every new
//   connection: a database that is reachable but slow (a statement waiting on another session's
//   lock, a runaway plan) cancels the statement itself. The error comes back at once, the
//   connection stays usable (a checked-out client's, knex's; pool.query closes a connection after
//   any error, as pg-pool does), the transaction is aborted (its caller rolls back), and the backend
//   stops working and frees its locks. The client alone would close its socket and leave the
//   backend running (PostgreSQL notices a closed client only when it next writes to it), still
//   holding the locks, still burning the CPU a retry then asks for again. A session idle inside
//   a transaction (its client gone across a partition) is ended likewise: rolled back, unlocked.
//   Its cancel is told from any other 57014 (pg_cancel_backend) by the statement's elapsed time,
//   not by the server's words, which follow its lc_messages (statementTimeout.ts).
// - The client's own timer: a network that black-holes the connection (no reset, no answer)
//   carries no cancel back. A query with no answer a little after the server's timeout
//   (clientDeadlineMs) fails with an error naming the database, the deadline and the setting,
//   and its connection is closed: never handed to the next query (node-postgres's own
//   query_timeout fails the promise but leaves the query on the connection, so a client checked
//   out and released without an error goes back to the pool busy, or dead). Without it the
//   query waited for the OS's retransmission limit (~15 min on Linux).
//
// The statements that set a new connection up are part of connecting: the connect timeout
// (VERDICT_PG_CONNECT_TIMEOUT_MS) bounds them, and their failure is a failed connect.
//
// Long maintenance (migrations, a projector rebuild and the checksum it prints, a wait on another
// process's migration or rebuild lock) sends LIFT_QUERY_DEADLINE first in its transaction: the
// statements' deadlines (the server's statement_timeout, the client's timer) are off until
// that transaction ends, on the server (set_config is_local) and on this client (it recognises
// the statement and watches the transaction status). Such work on a black-holed connection
// waits for the OS, as before; but the server still ends the session once it has sat idle in
// the transaction for LIFTED_IDLE_FACTOR times the deadline, so its locks do not outlive it.
import type pg from "pg";
import { destroyClient } from "./sessionCheck.js";
import { applyServerSettings, warnOncePerProcess } from "./serverSettings.js";
import { isStatementTimeout } from "./statementTimeout.js";

const QUERY_TIMEOUT_VARIABLE = "VERDICT_PG_QUERY_TIMEOUT_MS";

/** Node's longest timer: a longer delay fires after 1 ms (with a TimeoutOverflowWarning). */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * How long past the server's own timeout the client waits for the answer (the cancel must have
 * time to arrive): up to 2 s, and never past Node's longest timer (the setting's maximum,
 * 2147483647, plus 2 s would fail every query after 1 ms).
 */
function clientDeadlineMs(queryTimeoutMs: number): number {
  return Math.min(queryTimeoutMs + Math.min(queryTimeoutMs, 2_000), LONGEST_TIMER_MS);
}

/**
 * How many times the deadline a lifted transaction may sit idle between statements. Not
 * unbounded: a maintenance transaction whose network was black-holed (a rebuild, holding
 * ACCESS EXCLUSIVE on every read model) must still be ended by the server, or it holds its
 * locks until the OS gives the connection up. Its gaps are short: a rebuild's longest is the
 * read of the next batch of the log (which has the deadline, plus at most as much again for the
 * client's margin) and applying it in memory; a migration's are none.
 */
const LIFTED_IDLE_FACTOR = 4;

/**
 * Sent as the first statement of a transaction, it lifts the query deadline for the rest of it,
 * on the server and on the client (which recognises exactly this text): for migrations and
 * rebuilds, whose statements may rightly run long or wait long for a lock. A session idle in it
 * is still ended, at LIFTED_IDLE_FACTOR times the deadline.
 */
export const LIFT_QUERY_DEADLINE =
  "SELECT set_config('statement_timeout', '0', true), set_config('idle_in_transaction_session_timeout', " +
  `(SELECT LEAST(setting::bigint * ${LIFTED_IDLE_FACTOR}, 2147483647)::text FROM pg_settings WHERE name = 'idle_in_transaction_session_timeout'), true)`;

/** The server's side, sent on every new connection, one statement each (a refused one is skipped, with a warning once per process). */
function queryTimeoutStatements(queryTimeoutMs: number): string[] {
  return [`SET statement_timeout = ${queryTimeoutMs}`, `SET idle_in_transaction_session_timeout = ${queryTimeoutMs}`];
}

/**
 * What a query that hit the deadline failed with: the setting's value, and the error's own words
 * (its `message` may have been extended by the layers above: knex puts the SQL, with its
 * parameters, in front).
 */
export interface QueryTimeout {
  queryTimeoutMs: number;
  queryTimeout: string;
}

/**
 * True for an error of a query that hit the deadline: the client's (no answer; code ETIMEDOUT,
 * so it is a connection loss too) or the server's (SQLSTATE 57014 after statement_timeout),
 * found under the wrappers (`cause`, MikroORM's `previous`).
 */
export function isQueryTimeout(error: unknown): boolean {
  return queryTimeoutOf(error) !== null;
}

/**
 * The deadline a query error says it hit, and its words, or null; `byServer`: the server
 * cancelled the statement (57014: it is reachable, the query ran too long, and sending it again
 * as it is will not help), not the client (no answer: the network or the server is gone).
 */
export function queryTimeoutOf(error: unknown): (QueryTimeout & { byServer: boolean }) | null {
  let current = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const { queryTimeoutMs, queryTimeout } = current as Partial<QueryTimeout>;
    if (typeof queryTimeoutMs === "number" && typeof queryTimeout === "string") return { queryTimeoutMs, queryTimeout, byServer: (current as { code?: unknown }).code === "57014" };
    const next = current as { cause?: unknown; previous?: unknown };
    current = next.cause ?? next.previous;
  }
  return null;
}

export interface QueryDeadlineOptions {
  /** host:port/database, for messages (never the password). */
  where: string;
  /** The setting; null: no deadline (the class is returned as it is). */
  queryTimeoutMs: number | null;
  /**
   * The deadline of the statements that set a new connection up (VERDICT_PG_CONNECT_TIMEOUT_MS):
   * they are part of connecting, which a caller expects bounded so (default: the query deadline).
   */
  connectTimeoutMs?: number;
  /** Told when the server refuses one of the session's settings (default: a warning once per process). */
  onServerSettingRefused?(message: string): void;
}

type Callback = (error: Error | null, result?: unknown) => void;

/**
 * `Base` (a pg Client class) with the query deadline: each new connection asks the server for
 * the timeouts before it is used, and each query (text or config, promise or callback) has the
 * client's deadline. Submittables (cursors, streams) and a config carrying its own callback are
 * passed through without one. Used by createPgPool and by the read models' MikroORM (knex).
 */
export function withQueryDeadline(Base: typeof pg.Client, options: QueryDeadlineOptions): typeof pg.Client {
  if (options.queryTimeoutMs === null) return Base;
  const { where, queryTimeoutMs } = options as QueryDeadlineOptions & { queryTimeoutMs: number };
  const deadlineMs = clientDeadlineMs(queryTimeoutMs);
  const timeouts = queryTimeoutStatements(queryTimeoutMs);
  const [statementTimeout] = timeouts;
  const onRefused = options.onServerSettingRefused ?? warnOncePerProcess;
  const setUpMs = options.connectTimeoutMs ?? deadlineMs;

  class DeadlineClient extends Base {
    /** In a transaction that sent LIFT_QUERY_DEADLINE: no client deadline until it ends. */
    #lifted = false;
    /** Sending the new connection's settings, inside connect(). */
    #settingUp = false;
    /** The server took `SET statement_timeout` (a refused one is skipped): only then is a 57014 ours. */
    #serverTimeout = false;
    /**
     * When the last answer came: a query sent while another runs waits in the client's queue
     * until then, and the server's timer starts only when it gets it.
     */
    #lastAnsweredAt = -Infinity;

    override connect(callback?: any): any {
      const ready = super.connect().then(() => this.#askServer());
      if (typeof callback !== "function") return ready;
      ready.then(
        () => callback(),
        (error: Error) => callback(error),
      );
      return undefined;
    }

    async #askServer(): Promise<void> {
      // Until connect() resolves nobody may listen for `error` (a pool attaches its listener
      // after): a connection lost during these statements fails them, not the process. What it
      // said is kept: a FATAL between two statements (a terminated session, a restart) arrives
      // as this event, and the next statement then fails with pg's code-less "not queryable",
      // which says nothing of why.
      let lost: Error | undefined;
      const keep = (error: Error): void => {
        lost ??= error;
      };
      this.on("error", keep);
      this.#settingUp = true;
      try {
        const refused = await applyServerSettings(this, timeouts, onRefused);
        this.#serverTimeout = !refused.includes(statementTimeout);
      } catch (error) {
        this.#close(); // connected, then failed: not to be left open
        throw lost && /is not queryable/.test((error as Error).message) ? lost : error;
      } finally {
        this.#settingUp = false;
        this.off("error", keep);
      }
    }

    override query(config: any, values?: any, callback?: any): any {
      if (config == null || typeof config.submit === "function" || (typeof config === "object" && typeof config.callback === "function")) {
        return super.query(config, values, callback);
      }
      if (typeof values === "function") {
        callback = values;
        values = undefined;
      }
      if (typeof callback !== "function") {
        return new Promise((resolve, reject) => {
          this.query(config, values, (error: Error | null, result: unknown) => (error ? reject(error) : resolve(result)));
        });
      }
      const done = callback as Callback;
      const lifts = (typeof config === "string" ? config : config.text) === LIFT_QUERY_DEADLINE;
      if (this.#lifted && this.getTransactionStatus() === "I") this.#lifted = false;
      const settingUp = this.#settingUp;
      const serverTimeoutMs = this.#serverTimeout && !this.#lifted ? queryTimeoutMs : null;
      const sent = performance.now();
      let answered = false;
      let expired = false;
      const timer = this.#lifted
        ? null
        : setTimeout(() => {
            // Sockets are read after timers: an answer that came during a stalled event loop is read first.
            setImmediate(() => {
              if (answered) return;
              expired = true;
              this.#close(); // every query on it fails (Connection terminated), this one as timed out below
            });
          }, settingUp ? setUpMs : deadlineMs);
      timer?.unref();
      try {
        return super.query(config, values, (error: Error | null, result: unknown) => {
          if (answered) return;
          answered = true;
          if (timer) clearTimeout(timer);
          // Timed from when it left the queue (answers come in order): a cancel by someone else
          // soon after the query ahead of it ended is not read as this query's deadline.
          const now = performance.now();
          const ranMs = now - Math.max(sent, this.#lastAnsweredAt);
          this.#lastAnsweredAt = now;
          if (expired) return done(settingUp ? this.#setUpTimedOut(error) : this.#timedOut(error));
          if (isStatementTimeout(error, { serverTimeoutMs, elapsedMs: ranMs })) return done(this.#namedStatementTimeout(error));
          if (!error && lifts && this.getTransactionStatus() !== "I") this.#lifted = true;
          done(error, result);
        });
      } catch (error) {
        if (timer) clearTimeout(timer);
        throw error;
      }
    }

    /**
     * Ends the client at once: end() marks it ending (so the pool does not take it back, queries
     * fail, and no `error` event is raised on a client nobody listens to), and the socket is
     * destroyed (a graceful end would wait on a network that answers nothing).
     */
    #close(): void {
      this.end().catch(() => undefined);
      destroyClient(this);
    }

    #timedOut(cause: Error | null): Error {
      const message =
        `PostgreSQL at ${where} did not answer within ${deadlineMs} ms; the query was given up and its connection closed ` +
        `(${QUERY_TIMEOUT_VARIABLE}=${queryTimeoutMs}, with ${deadlineMs - queryTimeoutMs} ms more for the server's own cancel to arrive)`;
      return Object.assign(new Error(message), { code: "ETIMEDOUT", cause, queryTimeoutMs, queryTimeout: message });
    }

    /** Named as a failed connect is (namedConnectFailure adds where): it is one. */
    #setUpTimedOut(cause: Error | null): Error {
      const setting = options.connectTimeoutMs === undefined ? QUERY_TIMEOUT_VARIABLE : "VERDICT_PG_CONNECT_TIMEOUT_MS";
      return Object.assign(new Error(`the new connection's session settings got no answer within ${setUpMs} ms; the connection was closed (${setting})`), { code: "ETIMEDOUT", cause });
    }

    #namedStatementTimeout(error: Error): Error {
      error.message = `${error.message}: PostgreSQL at ${where} ran a statement longer than ${queryTimeoutMs} ms (${QUERY_TIMEOUT_VARIABLE})`;
      return Object.assign(error, { queryTimeoutMs, queryTimeout: error.message } satisfies QueryTimeout);
    }
  }
  return DeadlineClient;
}
