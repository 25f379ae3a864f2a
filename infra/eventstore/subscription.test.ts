import { describe, expect, it } from "vitest";
import type { LogPosition, RecordedEvent } from "./port.js";
import { catchUpThenLive, READ_RETRIES, type PagedLog } from "./subscription.js";
import { Wakeup } from "./wakeup.js";

const event = (n: number): RecordedEvent =>
  ({ streamId: "s", type: "T", data: {}, metadata: {}, id: `e${n}`, streamVersion: BigInt(n), position: { commit: BigInt(n), prepare: BigInt(n) }, recordedAt: new Date(0), schemaVersion: 1 }) as unknown as RecordedEvent;
const sessionEnded = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });

/** A log of `total` events whose reads fail with `failure` on the calls listed in `failing` (1-based). */
function flakyLog(total: number, failing: number[], failure: Error, retriable?: PagedLog["retriable"]): PagedLog & { reads: number } {
  const log = {
    reads: 0,
    wakeup: new Wakeup(),
    retriable,
    async readPage(after: LogPosition | undefined, limit: number) {
      log.reads += 1;
      if (failing.includes(log.reads)) throw failure;
      const from = after ? Number(after.commit) + 1 : 1;
      const events = Array.from({ length: Math.max(0, Math.min(limit, total - from + 1)) }, (_, i) => event(from + i));
      return { events, full: events.length === limit };
    },
  };
  return log;
}

async function take(log: PagedLog, count: number, pollIntervalMs = 10): Promise<number[]> {
  const controller = new AbortController();
  const seen: number[] = [];
  for await (const recorded of catchUpThenLive(log, { signal: controller.signal }, { pageSize: 2, pollIntervalMs, readRetryMs: 5 })) {
    seen.push(Number(recorded.position.commit));
    if (seen.length === count) controller.abort();
  }
  return seen;
}

describe("catchUpThenLive when a read fails", () => {
  it("reads again from the same position after a connection loss, neither losing nor repeating an event", async () => {
    const log = flakyLog(5, [2, 3], sessionEnded, (error) => (error as { code?: string }).code === "57P01");
    expect(await take(log, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it("ends with the error when the read is not retriable, or keeps failing", async () => {
    await expect(take(flakyLog(5, [2], sessionEnded), 5)).rejects.toThrow("administrator command");
    const wrong = new Error('relation "messages" does not exist');
    await expect(take(flakyLog(5, [2], wrong, () => false), 5)).rejects.toThrow("does not exist");
    const always = Array.from({ length: READ_RETRIES + 1 }, (_, i) => i + 2);
    const log = flakyLog(5, always, sessionEnded, () => true);
    await expect(take(log, 5)).rejects.toThrow("administrator command");
    expect(log.reads).toBe(READ_RETRIES + 2);
  });
});

describe("catchUpThenLive over pages cut by bytes", () => {
  it("reads on at once after a short page that was cut, and waits only at a page that was not", async () => {
    // One event a page, each cut by the byte budget: with a poll interval of a minute, a reader
    // that took a short page for the end of the log would wait a minute after the first.
    const log = { reads: 0, wakeup: new Wakeup(), async readPage(after: LogPosition | undefined) {
      log.reads += 1;
      const next = after ? Number(after.commit) + 1 : 1;
      return next <= 4 ? { events: [event(next)], full: true } : { events: [], full: false };
    } };
    const started = Date.now();
    expect(await take(log, 4, 60_000)).toEqual([1, 2, 3, 4]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(log.reads).toBe(4);
  });
});
