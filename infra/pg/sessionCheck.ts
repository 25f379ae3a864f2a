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
  /** How often, and how long the check may take (VERDICT_PG_SESSION_CHECK_MS). */
  everyMs: number;
  /** Called once, with why, when a check failed or did not answer in time; the session is then destroyed. */
  onDead(error: Error): void;
}

/** Destroys the client's socket: pg then ends the client (`end`, `error` to a query in flight). */
export function destroyClient(client: pg.ClientBase): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/**
 * Every `everyMs`, `SELECT 1` on `client` must answer within `everyMs`. When one does not (or
 * fails), `onDead` is told first, then the client's socket is destroyed: `client.end()` would
 * wait on a network that answers nothing. The timer does not keep the process alive.
 */
export function checkSession(client: pg.ClientBase, options: SessionCheckOptions): SessionCheck {
  let stopped = false;
  let inFlight = false;
  const timer = setInterval(() => {
    if (stopped || inFlight) return;
    inFlight = true;
    client
      .query({ text: "SELECT 1", query_timeout: options.everyMs } as pg.QueryConfig)
      .then(
        () => undefined,
        (error: unknown) => {
          if (stopped) return;
          check.stop();
          const why = (error as Error).message === "Query read timeout" ? `no answer within ${options.everyMs} ms` : (error as Error).message;
          const dead = Object.assign(new Error(`the session did not answer its check (${why}; VERDICT_PG_SESSION_CHECK_MS)`), { code: "ETIMEDOUT", cause: error });
          try {
            options.onDead(dead);
          } finally {
            destroyClient(client);
          }
        },
      )
      .finally(() => (inFlight = false));
  }, options.everyMs);
  timer.unref();
  const check: SessionCheck = {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
  return check;
}
