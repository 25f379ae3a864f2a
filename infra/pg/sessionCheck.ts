// A session that holds something while idle (a leadership lock, a LISTEN) sends nothing, so a
// network that black-holes its traffic goes unnoticed: no error, no `end`, for as long as the
// operating system's TCP timers allow (keepalive probes start after the idle time; with data
// unacknowledged, retransmissions last some 15 minutes). A cheap query on a timer, with a
// deadline, finds it in bounded time.
import type pg from "pg";

export interface SessionCheck {
  stop(): void;
}

export interface SessionCheckOptions {
  /** How often the session is checked (VERDICT_PG_SESSION_CHECK_MS); each check may take 3 times this. */
  everyMs: number;
  /** Called once, with why, when a check failed or did not answer in time; the session is then destroyed. */
  onDead(error: Error): void;
}

/** A check's deadline, in intervals: longer than one, so a stalled event loop is not a dead session. */
export const SESSION_CHECK_DEADLINE_INTERVALS = 3;

/** Destroys the client's socket: pg then ends the client (`end`, `error` to a query in flight). */
export function destroyClient(client: pg.ClientBase): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/**
 * Runs `work` (a few short queries on `client`) with a deadline: past it the client's socket is
 * destroyed, so a query in flight on a black-holed connection fails instead of waiting for the
 * operating system to give up (~15 minutes), and the error says what did not answer in time. For
 * short work on a session checked as above, taken from a pool: a pooled connection the network
 * cut while it was idle answers nothing, and no connect timeout applies to it.
 */
export async function withSessionDeadline<T>(client: pg.ClientBase, deadlineMs: number, what: string, work: () => Promise<T>): Promise<T> {
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    destroyClient(client);
  }, deadlineMs);
  timer.unref();
  try {
    return await work();
  } catch (error) {
    if (!expired) throw error;
    throw Object.assign(new Error(`${what}: the session did not answer within ${deadlineMs} ms (${SESSION_CHECK_DEADLINE_INTERVALS} x VERDICT_PG_SESSION_CHECK_MS)`), { code: "ETIMEDOUT", cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Every `everyMs`, `SELECT 1` on `client` (one at a time) must answer within 3 x `everyMs`; a
 * session that goes silent is found within about 4 x `everyMs` (the next check is sent at most
 * one interval later, then its deadline). When a check does not answer in time (or fails),
 * `onDead` is told first, then the client's socket is destroyed: `client.end()` would wait on a
 * network that answers nothing. The timer does not keep the process alive.
 *
 * A stalled event loop (a big report rendered, a long GC) is not a dead session: the deadline is
 * longer than the interval, and when it expires the verdict waits one turn of the event loop, so
 * an answer that arrived during the stall is read first (Node runs due timers before it reads
 * sockets). A deadline as short as the interval, pg's query_timeout, dropped healthy sessions
 * (a dispatcher's leadership) after any stall longer than an interval.
 */
export function checkSession(client: pg.ClientBase, options: SessionCheckOptions): SessionCheck {
  const deadlineMs = options.everyMs * SESSION_CHECK_DEADLINE_INTERVALS;
  let stopped = false;
  let inFlight = false;
  let deadline: NodeJS.Timeout | null = null;
  const dead = (why: string, cause?: unknown): void => {
    if (stopped) return;
    check.stop();
    const error = Object.assign(new Error(`the session did not answer its check (${why})`), { code: "ETIMEDOUT", cause });
    try {
      options.onDead(error);
    } finally {
      destroyClient(client);
    }
  };
  const timer = setInterval(() => {
    if (stopped || inFlight) return;
    inFlight = true;
    let answered = false;
    deadline = setTimeout(() => {
      deadline = null;
      // Sockets are read after timers: an answer that came during a stall is read before this.
      setImmediate(() => {
        if (!answered) dead(`no answer within ${deadlineMs} ms: ${SESSION_CHECK_DEADLINE_INTERVALS} x VERDICT_PG_SESSION_CHECK_MS`);
      });
    }, deadlineMs);
    deadline.unref();
    client.query("SELECT 1").then(
      () => {
        answered = true;
        inFlight = false;
        if (deadline) clearTimeout(deadline);
        deadline = null;
      },
      (error: unknown) => {
        answered = true;
        if (deadline) clearTimeout(deadline);
        deadline = null;
        dead(`${(error as Error).message}; VERDICT_PG_SESSION_CHECK_MS`, error);
      },
    );
  }, options.everyMs);
  timer.unref();
  const check: SessionCheck = {
    stop() {
      stopped = true;
      clearInterval(timer);
      if (deadline) clearTimeout(deadline);
      deadline = null;
    },
  };
  return check;
}
