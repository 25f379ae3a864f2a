// Catch-up then live, shared by every adapter that reads its log in pages: read pages after the
// checkpoint until a short page, then wait for a wake-up (or the poll interval) and read again.
// The checkpoint only ever moves to the position of an event just delivered, and each page is
// read strictly after it, so the switch from catch-up to live cannot lose or repeat an event.
import type { LogPosition, RecordedEvent, SubscribeAllOptions } from "./port.js";
import type { Wakeup } from "./wakeup.js";

export interface PagedLog {
  readPage(after: LogPosition | undefined, limit: number, options: SubscribeAllOptions): Promise<RecordedEvent[]>;
  wakeup: Wakeup;
}

export interface SubscriptionTuning {
  /** Events per catch-up page. */
  pageSize?: number;
  /** Longest wait without a wake-up before reading again (the polling fallback). */
  pollIntervalMs?: number;
}

export async function* catchUpThenLive(log: PagedLog, options: SubscribeAllOptions, tuning: SubscriptionTuning = {}): AsyncGenerator<RecordedEvent> {
  const pageSize = tuning.pageSize ?? 500;
  const pollIntervalMs = tuning.pollIntervalMs ?? 500;
  const { signal } = options;
  let after = options.after;
  // After a wake-up that found nothing (a commit not yet visible because an older transaction is
  // still open), re-read soon rather than wait a whole poll interval for a notification that a
  // rolled-back transaction will never send.
  let retryMs = 0;
  while (!signal?.aborted) {
    const generation = log.wakeup.generation;
    const page = await log.readPage(after, pageSize, options);
    for (const event of page) {
      if (signal?.aborted) return;
      yield event;
      after = event.position;
    }
    if (page.length === pageSize) continue;
    const woken = await log.wakeup.wait(generation, retryMs > 0 ? retryMs : pollIntervalMs, signal);
    retryMs = woken ? 5 : retryMs > 0 && retryMs * 2 < pollIntervalMs ? retryMs * 2 : 0;
  }
}
