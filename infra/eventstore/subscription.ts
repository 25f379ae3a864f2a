// Catch-up then live, shared by every adapter that reads its log in pages: read pages after the
// checkpoint until one that is not full (page.ts: a page cut short by its byte budget is full),
// then wait for a wake-up (or the poll interval) and read again.
// The checkpoint only ever moves to the position of an event just delivered, and each page is
// read strictly after it, so the switch from catch-up to live cannot lose or repeat an event.
import { setTimeout as sleep } from "node:timers/promises";
import type { LogPage, PageBudget } from "./page.js";
import type { LogPosition, RecordedEvent, SubscribeAllOptions } from "./port.js";
import { validateLimit } from "./validation.js";
import type { Wakeup } from "./wakeup.js";

export interface PagedLog {
  readPage(after: LogPosition | undefined, limit: number, options: SubscribeAllOptions): Promise<LogPage>;
  wakeup: Wakeup;
  /** Whether a failed read may be sent again (the connection went away); by default none may. */
  retriable?: (error: unknown) => boolean;
}

/** Reads in a row that may fail retriably before the subscription gives up with the last error. */
export const READ_RETRIES = 5;
/** The wait before a failed read is sent again (a LISTEN connection reconnects after as long). */
const READ_RETRY_MS = 1_000;

export interface SubscriptionTuning extends PageBudget {
  /** Events per catch-up page (fewer when they reach maxPageBytes). */
  pageSize?: number;
  /** Longest wait without a wake-up before reading again (the polling fallback). */
  pollIntervalMs?: number;
  /** The wait before a read that failed retriably is sent again (default READ_RETRY_MS). */
  readRetryMs?: number;
}

export async function* catchUpThenLive(log: PagedLog, options: SubscribeAllOptions, tuning: SubscriptionTuning = {}): AsyncGenerator<RecordedEvent> {
  validateLimit(options.pageSize, "pageSize");
  const pageSize = options.pageSize ?? tuning.pageSize ?? 500;
  const pollIntervalMs = tuning.pollIntervalMs ?? 500;
  const { signal } = options;
  let after = options.after;
  // After a wake-up that found nothing (a commit not yet visible because an older transaction is
  // still open), re-read soon rather than wait a whole poll interval for a notification that a
  // rolled-back transaction will never send.
  let retryMs = 0;
  let failures = 0;
  while (!signal?.aborted) {
    const generation = log.wakeup.generation;
    let page: LogPage;
    try {
      page = await log.readPage(after, pageSize, options);
      failures = 0;
    } catch (error) {
      // A session the server ended mid-read (a restart, pg_terminate_backend) is read again on a
      // new connection from the same position: a live subscriber outlives it, as LISTEN does.
      if (signal?.aborted) return;
      if (!log.retriable?.(error) || ++failures > READ_RETRIES) throw error;
      // A plain wait: wake-ups arriving meanwhile would send the retries off before the server is back.
      await sleep(tuning.readRetryMs ?? READ_RETRY_MS, undefined, { signal }).catch(() => undefined);
      continue;
    }
    for (const event of page.events) {
      if (signal?.aborted) return;
      yield event;
      after = event.position;
    }
    // Not `page.events.length === pageSize`: a page cut by bytes is short, and the log goes on.
    if (page.full) continue;
    const woken = await log.wakeup.wait(generation, retryMs > 0 ? retryMs : pollIntervalMs, signal);
    retryMs = woken ? 5 : retryMs > 0 && retryMs * 2 < pollIntervalMs ? retryMs * 2 : 0;
  }
}
