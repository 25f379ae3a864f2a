// The one EventStore contract suite (DESIGN.md "Every port has one shared contract suite"):
// every adapter calls eventStoreContract with a factory for a fresh store. Each case writes to
// streams under its own random prefix and reads through that prefix, so adapters whose log is
// shared between tests (EventStoreDB) run the same cases; only "readAll without a filter" needs
// a log of its own. A skipped case names its reason in the suite call.
import { randomBytes, randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EventStore, EventToAppend, LogPosition, RecordedEvent, StreamPage } from "../../domain/ports/eventStore.js";
import { WrongExpectedVersionError } from "../../domain/ports/eventStore.js";
import { abortLoad } from "../../infra/abort/abortLoad.testing.js";

/** Settings a case asks of its store; every factory hands them to its adapter's options. */
interface ContractTuning {
  /** The byte budget of a page of the log (PageBudget in infra/eventstore/page.ts). */
  maxPageBytes?: number;
  /** The subscription's polling fallback. */
  pollIntervalMs?: number;
}

export type EventStoreFactory = (tuning?: ContractTuning) => Promise<EventStore>;
export interface EventStoreContractOptions {
  /** Case name -> why this adapter skips it. */
  skip?: Partial<Record<ContractCase, string>>;
}

type ContractCase = keyof typeof cases;

interface Context {
  store: EventStore;
  /**
   * A store of its own with these settings (over the same log, for adapters whose log is shared):
   * a case that asks for one writes and reads through it. Closed after the case.
   */
  storeWith: (tuning: ContractTuning) => Promise<EventStore>;
  /** Unique stream prefix of this case, e.g. "t3f9a2c-". */
  prefix: string;
}

export function event(type = "ThingHappened", data: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): EventToAppend {
  return { id: randomUUID(), type, schemaVersion: 1, data, metadata };
}

export function events(count: number, type = "ThingHappened"): EventToAppend[] {
  return Array.from({ length: count }, (_, n) => event(type, { n }));
}

function comparePositions(a: LogPosition, b: LogPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  return a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;
}

export function expectStrictlyOrdered(recorded: RecordedEvent[]): void {
  for (let i = 1; i < recorded.length; i += 1) {
    expect(comparePositions(recorded[i - 1].position, recorded[i].position), `position ${i} after ${i - 1}`).toBe(-1);
  }
}

/** Reads a subscription until `count` events arrived, then aborts it. Fails after `timeoutMs`. */
export async function take(
  store: EventStore,
  count: number,
  options: { after?: LogPosition; streamPrefixes?: string[]; eventTypes?: string[]; timeoutMs?: number; onEvent?: (e: RecordedEvent) => void | Promise<void> } = {},
): Promise<RecordedEvent[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 10_000);
  const received: RecordedEvent[] = [];
  try {
    const filter = { streamPrefixes: options.streamPrefixes, eventTypes: options.eventTypes };
    for await (const recorded of store.subscribeAll({ after: options.after, filter, signal: controller.signal })) {
      received.push(recorded);
      await options.onEvent?.(recorded);
      if (received.length >= count) break;
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  if (received.length < count) throw new Error(`subscription delivered ${received.length} of ${count} events before timing out`);
  return received;
}

async function conflictOf(promise: Promise<unknown>): Promise<WrongExpectedVersionError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WrongExpectedVersionError);
  return error as WrongExpectedVersionError;
}

const ids = (recorded: RecordedEvent[]) => recorded.map((e) => e.id);

/** Every event after the start, page by page (`limit` each), until a page is empty: the pages. */
async function readInPages(store: EventStore, limit: number, streamPrefixes: string[]): Promise<RecordedEvent[][]> {
  const pages: RecordedEvent[][] = [];
  for (;;) {
    const page = await store.readAll({ filter: { streamPrefixes }, limit, after: pages.at(-1)?.at(-1)?.position });
    if (page.length === 0) return pages;
    pages.push(page);
  }
}

/**
 * A stream read page by page (`limit` each) from its start forwards or its end backwards, each
 * page after the last event read, until a page is empty: the pages.
 */
async function readStreamInPages(store: EventStore, streamId: string, limit: number, direction: "forwards" | "backwards"): Promise<StreamPage[]> {
  const pages: StreamPage[] = [];
  for (;;) {
    const last = pages.at(-1)?.at(-1)?.streamVersion;
    if (direction === "backwards" && last === 0n) return pages;
    const from = last === undefined ? (direction === "forwards" ? "start" : "end") : direction === "forwards" ? last + 1n : last - 1n;
    const page = await store.readStream(streamId, { from, direction, limit });
    if (page.length === 0) return pages;
    pages.push(page);
  }
}

/** A page budget small enough for test events, and data that does not compress (SQL stores count stored bytes). */
const PAGE_BYTES = 64 * 1024;
const incompressible = (bytes: number) => randomBytes(Math.ceil((bytes * 3) / 4)).toString("base64").slice(0, bytes);

/** `readAll` until it holds `count` events, for at most 2 s. */
const cases = {
  "noStream appends to a new stream and refuses an existing one": async ({ store, prefix }: Context) => {
    const stream = `${prefix}a`;
    const result = await store.append(stream, events(2), { expectedVersion: "noStream" });
    expect(result.nextExpectedVersion).toBe(1n);
    const error = await conflictOf(store.append(stream, events(1), { expectedVersion: "noStream" }));
    expect(error.actual).toBe(1n);
    expect(await store.readStream(stream)).toHaveLength(2);
  },
  "streamExists appends to an existing stream and refuses a missing one": async ({ store, prefix }: Context) => {
    const error = await conflictOf(store.append(`${prefix}missing`, events(1), { expectedVersion: "streamExists" }));
    expect(error.actual).toBeNull();
    expect(await store.streamVersion(`${prefix}missing`)).toBeNull();
    await store.append(`${prefix}b`, events(1));
    expect((await store.append(`${prefix}b`, events(1), { expectedVersion: "streamExists" })).nextExpectedVersion).toBe(1n);
  },
  "an exact version appends when it matches and refuses a stale one": async ({ store, prefix }: Context) => {
    const stream = `${prefix}c`;
    await conflictOf(store.append(stream, events(1), { expectedVersion: 0n }));
    await store.append(stream, events(3), { expectedVersion: "noStream" });
    expect((await store.append(stream, events(1), { expectedVersion: 2n })).nextExpectedVersion).toBe(3n);
    const error = await conflictOf(store.append(stream, events(1), { expectedVersion: 2n }));
    expect(error.actual).toBe(3n);
    expect(error.expected).toBe(2n);
    expect(await store.streamVersion(stream)).toBe(3n);
  },
  "any appends whatever the stream's state": async ({ store, prefix }: Context) => {
    const stream = `${prefix}d`;
    expect((await store.append(stream, events(1), { expectedVersion: "any" })).nextExpectedVersion).toBe(0n);
    expect((await store.append(stream, events(2))).nextExpectedVersion).toBe(2n);
    expect((await store.readStream(stream)).map((e) => e.streamVersion)).toEqual([0n, 1n, 2n]);
  },
  "concurrent appends to one stream with one expected version: exactly one wins": async ({ store, prefix }: Context) => {
    const stream = `${prefix}e`;
    await store.append(stream, events(1), { expectedVersion: "noStream" });
    const attempts = await Promise.allSettled(Array.from({ length: 8 }, () => store.append(stream, events(2), { expectedVersion: 0n })));
    expect(attempts.filter((a) => a.status === "fulfilled")).toHaveLength(1);
    for (const failed of attempts.filter((a): a is PromiseRejectedResult => a.status === "rejected")) {
      expect(failed.reason).toBeInstanceOf(WrongExpectedVersionError);
    }
    expect(await store.streamVersion(stream)).toBe(2n);
    const creators = await Promise.allSettled(Array.from({ length: 8 }, () => store.append(`${prefix}new`, events(1), { expectedVersion: "noStream" })));
    expect(creators.filter((a) => a.status === "fulfilled")).toHaveLength(1);
    expect(await store.readStream(`${prefix}new`)).toHaveLength(1);
  },
  "a retried append with the same ids is idempotent": async ({ store, prefix }: Context) => {
    const stream = `${prefix}f`;
    const batch = events(3);
    const first = await store.append(stream, batch, { expectedVersion: "noStream" });
    const retried = await store.append(stream, batch, { expectedVersion: "noStream" });
    expect(retried).toEqual(first);
    const again = await store.append(stream, batch, { expectedVersion: "any" });
    expect(again).toEqual(first);
    const concurrent = events(2);
    const results = await Promise.all([1, 2, 3].map(() => store.append(stream, concurrent, { expectedVersion: 2n })));
    expect(new Set(results.map((r) => r.nextExpectedVersion))).toEqual(new Set([4n]));
    const anyRetries = events(2);
    const anyResults = await Promise.all([1, 2, 3, 4].map(() => store.append(stream, anyRetries, { expectedVersion: "any" })));
    expect(new Set(anyResults.map((r) => r.nextExpectedVersion))).toEqual(new Set([6n]));
    expect(ids(await store.readStream(stream))).toEqual(ids([...batch, ...concurrent, ...anyRetries] as RecordedEvent[]));
  },
  "concurrent appends and version checks on many streams each get their own answer": async ({ store, prefix }: Context) => {
    // Stores may send concurrent calls together (one statement, one transaction); a conflict, a
    // retry or a refused append among them must not change anyone else's answer.
    const taken = `${prefix}taken`;
    const retriedBatch = events(2);
    const first = await store.append(taken, retriedBatch, { expectedVersion: "noStream" });
    const fresh = Array.from({ length: 12 }, (_, i) => `${prefix}p${i}`);
    const [appended, conflict, retried, stale, versions] = await Promise.all([
      Promise.all(fresh.map((stream) => store.append(stream, events(2), { expectedVersion: "noStream" }))),
      conflictOf(store.append(taken, events(1), { expectedVersion: "noStream" })),
      store.append(taken, retriedBatch, { expectedVersion: "noStream" }),
      conflictOf(store.append(taken, events(1), { expectedVersion: 0n })),
      Promise.all([taken, `${prefix}missing`, fresh[0]].map((stream) => store.streamVersion(stream))),
    ]);
    expect(appended.map((r) => r.nextExpectedVersion)).toEqual(fresh.map(() => 1n));
    expect(new Set(appended.map((r) => `${r.position.commit}:${r.position.prepare}`)).size).toBe(fresh.length);
    expect(conflict.actual).toBe(1n);
    expect(stale.actual).toBe(1n);
    expect(retried).toEqual(first);
    expect(versions[0]).toBe(1n);
    expect(versions[1]).toBeNull();
    for (const stream of fresh) expect((await store.readStream(stream)).map((e) => e.streamVersion)).toEqual([0n, 1n]);
    expect(ids(await store.readStream(taken))).toEqual(ids(retriedBatch as RecordedEvent[]));
    expectStrictlyOrdered(await store.readAll({ filter: { streamPrefixes: [prefix] } }));
  },
  "concurrent appends creating many streams: versions from 0, positions as answered, log order kept": async ({ store, prefix }: Context) => {
    const streams = Array.from({ length: 10 }, (_, i) => `${prefix}new${i}`);
    const batches = streams.map((_, i) => events(1 + (i % 3)));
    const answers = await Promise.all(streams.map((stream, i) => store.append(stream, batches[i], { expectedVersion: "noStream" })));
    for (const [i, stream] of streams.entries()) {
      const recorded = await store.readStream(stream);
      expect(ids(recorded)).toEqual(ids(batches[i] as RecordedEvent[]));
      expect(recorded.map((e) => e.streamVersion)).toEqual(batches[i].map((_, v) => BigInt(v)));
      expect(answers[i].nextExpectedVersion).toBe(BigInt(batches[i].length - 1));
      expect(answers[i].position).toEqual(recorded.at(-1)!.position);
      expect(await store.streamVersion(stream)).toBe(BigInt(batches[i].length - 1));
    }
    const all = await store.readAll({ filter: { streamPrefixes: [`${prefix}new`] } });
    expect(all).toHaveLength(batches.flat().length);
    expectStrictlyOrdered(all);
    // Within a stream the log order is the stream order.
    for (const stream of streams) {
      expect(all.filter((e) => e.streamId === stream).map((e) => e.streamVersion)).toEqual((await store.readStream(stream)).map((e) => e.streamVersion));
    }
  },
  "concurrent appends creating streams and extending others at exact versions: each answered, versions continue": async ({ store, prefix }: Context) => {
    // A worker's batch: new pair streams beside pairs it created a moment before (version 0).
    const existing = Array.from({ length: 6 }, (_, i) => `${prefix}old${i}`);
    const firsts = await Promise.all(existing.map((stream) => store.append(stream, events(1), { expectedVersion: "noStream" })));
    const fresh = Array.from({ length: 6 }, (_, i) => `${prefix}young${i}`);
    const later = existing.map((_, i) => events(1 + (i % 2)));
    const [extended, created] = await Promise.all([
      Promise.all(existing.map((stream, i) => store.append(stream, later[i], { expectedVersion: 0n }))),
      Promise.all(fresh.map((stream) => store.append(stream, events(1), { expectedVersion: "noStream" }))),
    ]);
    for (const [i, stream] of existing.entries()) {
      const recorded = await store.readStream(stream);
      expect(recorded.map((e) => e.streamVersion)).toEqual([0n, ...later[i].map((_, v) => BigInt(v + 1))]);
      expect(extended[i].nextExpectedVersion).toBe(BigInt(later[i].length));
      expect(extended[i].position).toEqual(recorded.at(-1)!.position);
      expect(comparePositions(extended[i].position, firsts[i].position)).toBeGreaterThan(0);
      expect(await store.streamVersion(stream)).toBe(BigInt(later[i].length));
    }
    for (const [i, stream] of fresh.entries()) {
      expect(created[i].nextExpectedVersion).toBe(0n);
      expect(await store.streamVersion(stream)).toBe(0n);
    }
    // A stale exact version among fresh appends is refused alone; the others land.
    const [stale, ...others] = await Promise.all([
      conflictOf(store.append(existing[0], events(1), { expectedVersion: 0n })),
      ...fresh.map((stream) => store.append(stream, events(1), { expectedVersion: 0n })),
    ]);
    expect(stale.actual).toBe(BigInt(later[0].length));
    expect(others.map((r) => (r as { nextExpectedVersion: bigint }).nextExpectedVersion)).toEqual(fresh.map(() => 1n));
    expectStrictlyOrdered(await store.readAll({ filter: { streamPrefixes: [prefix] } }));
  },
  "readStream reads forwards, backwards, from a version and with a limit": async ({ store, prefix }: Context) => {
    const stream = `${prefix}g`;
    // Twelve events, so versions past 9 would show a text ordering ("10" < "9").
    await store.append(stream, events(12));
    const versions = (read: RecordedEvent[]) => read.map((e) => Number(e.streamVersion));
    const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);
    expect(versions(await store.readStream(stream))).toEqual(upTo(12));
    expect(versions(await store.readStream(stream, { direction: "backwards" }))).toEqual(upTo(12).reverse());
    expect(versions(await store.readStream(stream, { from: 8n, limit: 3 }))).toEqual([8, 9, 10]);
    expect(versions(await store.readStream(stream, { from: 2n, direction: "backwards" }))).toEqual([2, 1, 0]);
    expect(versions(await store.readStream(stream, { from: "end", direction: "backwards", limit: 2 }))).toEqual([11, 10]);
    expect(await store.readStream(stream, { from: 12n })).toEqual([]);
    expect(await store.readStream(`${prefix}none`)).toEqual([]);
  },
  "streamVersion reports the last version or null": async ({ store, prefix }: Context) => {
    expect(await store.streamVersion(`${prefix}h`)).toBeNull();
    await store.append(`${prefix}h`, events(4));
    expect(await store.streamVersion(`${prefix}h`)).toBe(3n);
  },
  "events round-trip with data, metadata, schema version and recordedAt": async ({ store, prefix }: Context) => {
    const sent: EventToAppend = { ...event("Nested", { text: "é ü \"quoted\" \\ ✓", list: [1, { deep: null }], flag: true }, { correlationId: "c-1" }), schemaVersion: 3 };
    const before = Date.now();
    const result = await store.append(`${prefix}i`, [sent]);
    const [read] = await store.readStream(`${prefix}i`);
    expect(read).toMatchObject({ id: sent.id, type: "Nested", schemaVersion: 3, data: sent.data, metadata: sent.metadata, streamId: `${prefix}i`, streamVersion: 0n });
    expect(read.position).toEqual(result.position);
    expect(read.recordedAt).toBeInstanceOf(Date);
    expect(Math.abs(read.recordedAt.getTime() - before)).toBeLessThan(60_000);
  },
  "readAll returns the log in one order and pages after a position": async ({ store, prefix }: Context) => {
    const written: string[] = [];
    for (let n = 0; n < 6; n += 1) {
      const batch = events(1 + (n % 3));
      written.push(...batch.map((e) => e.id));
      await store.append(`${prefix}s${n % 3}`, batch);
    }
    const filter = { streamPrefixes: [prefix] };
    const all = await store.readAll({ filter });
    expect(ids(all)).toEqual(written);
    expectStrictlyOrdered(all);
    // Page after page, each after the last event read: full pages until the last.
    const paged: RecordedEvent[] = [];
    while (paged.length < written.length) {
      const page = await store.readAll({ filter, limit: 4, after: paged.at(-1)?.position });
      expect(page).toHaveLength(Math.min(4, written.length - paged.length));
      paged.push(...page);
    }
    expect(ids(paged)).toEqual(written);
    expect(await store.readAll({ filter, limit: 4, after: paged.at(-1)!.position })).toEqual([]);
  },
  "readAll without a filter returns the whole log": async ({ store, prefix }: Context) => {
    expect(await store.lastPosition()).toBeNull();
    const first = await store.append(`${prefix}x`, events(2));
    await store.append(`${prefix}y`, events(1));
    const all = await store.readAll();
    expect(all).toHaveLength(3);
    expectStrictlyOrdered(all);
    expect(ids(await store.readAll({ after: first.position }))).toEqual([all[2].id]);
    expect(await store.lastPosition()).toEqual(all[2].position);
  },
  "lastPosition is the last append's, and nothing is read after it": async ({ store, prefix }: Context) => {
    await store.append(`${prefix}a`, events(2));
    const last = await store.append(`${prefix}b`, events(1));
    const head = await store.lastPosition();
    expect(head).not.toBeNull();
    // At or after: adapters whose log is shared (EventStoreDB) may hold others' appends after it.
    expect(comparePositions(head!, last.position)).toBeGreaterThanOrEqual(0);
    expect(await store.readAll({ after: head!, limit: 10 })).toEqual([]);
  },
  "readAll filters by stream prefix and by event type": async ({ store, prefix }: Context) => {
    await store.append(`${prefix}run-1`, [event("RunStarted"), event("RunCompleted")]);
    await store.append(`${prefix}result-1.0`, [event("ReplayRecorded")]);
    await store.append(`${prefix}run_2`, [event("RunStarted")]);
    const types = (read: RecordedEvent[]) => read.map((e) => `${e.streamId.slice(prefix.length)}:${e.type}`);
    // "_" must match literally, not as a LIKE wildcard.
    expect(types(await store.readAll({ filter: { streamPrefixes: [`${prefix}run-`] } }))).toEqual(["run-1:RunStarted", "run-1:RunCompleted"]);
    expect(types(await store.readAll({ filter: { streamPrefixes: [`${prefix}run-`, `${prefix}result-`] } }))).toHaveLength(3);
    expect(types(await store.readAll({ filter: { streamPrefixes: [prefix], eventTypes: ["RunStarted", "ReplayRecorded"] } }))).toEqual([
      "run-1:RunStarted",
      "result-1.0:ReplayRecorded",
      "run_2:RunStarted",
    ]);
  },
  "pages of large events are cut by bytes, and readAll pages and a subscription still give the whole log in order": async ({ storeWith, prefix }: Context) => {
    // A poll interval of a minute: a subscription that took a page cut short for the end of the
    // log would wait that long (nothing is appended after it starts) and time out.
    const store = await storeWith({ maxPageBytes: PAGE_BYTES, pollIntervalMs: 60_000 });
    const written: string[] = [];
    for (const [n, count] of [1, 3, 2, 4].entries()) {
      // Each event about 30% of the budget: three fit a page, a fourth would pass it.
      const batch = Array.from({ length: count }, () => event("Large", { blob: incompressible(PAGE_BYTES * 0.3) }));
      written.push(...batch.map((e) => e.id));
      await store.append(`${prefix}large${n % 2}`, batch);
    }
    const pages = await readInPages(store, 100, [prefix]);
    expect(ids(pages.flat())).toEqual(written);
    expect(pages.map((page) => page.length)).toEqual([3, 3, 3, 1]);
    const received = await take(store, written.length, { streamPrefixes: [prefix] });
    expect(ids(received)).toEqual(written);
    expectStrictlyOrdered(received);
  },
  "an event larger than the page budget is read alone, and the log goes on after it": async ({ storeWith, prefix }: Context) => {
    const store = await storeWith({ maxPageBytes: PAGE_BYTES, pollIntervalMs: 60_000 });
    const [first, huge, ...rest] = [event("Small"), event("Huge", { blob: incompressible(PAGE_BYTES * 1.5) }), event("Small"), event("Small")];
    await store.append(`${prefix}h`, [first, huge]);
    await store.append(`${prefix}h`, rest);
    const pages = await readInPages(store, 100, [prefix]);
    expect(pages.map(ids)).toEqual([[first.id], [huge.id], rest.map((e) => e.id)]);
    // Without a limit, readAll is not a page: the whole log at once.
    expect(ids(await store.readAll({ filter: { streamPrefixes: [prefix] } }))).toEqual(pages.flat().map((e) => e.id));
    const received = await take(store, 4, { streamPrefixes: [prefix] });
    expect(ids(received)).toEqual([first, huge, ...rest].map((e) => e.id));
    expect((received[1].data as { blob: string }).blob).toBe(huge.data.blob);
  },
  "readStream pages of large events are cut by bytes, and reading on until a page is empty gives the whole stream, forwards and backwards": async ({ storeWith, prefix }: Context) => {
    const store = await storeWith({ maxPageBytes: PAGE_BYTES });
    const stream = `${prefix}large`;
    const written: string[] = [];
    for (const [n, count] of [1, 3, 2, 4].entries()) {
      // Each event about 30% of the budget: three fit a page, a fourth would pass it.
      const batch = Array.from({ length: count }, () => event("Large", { blob: incompressible(PAGE_BYTES * 0.3) }));
      written.push(...batch.map((e) => e.id));
      await store.append(stream, batch);
      // Another stream's events between them count for nothing.
      await store.append(`${prefix}other${n}`, [event("Large", { blob: incompressible(PAGE_BYTES * 0.3) })]);
    }
    const forwards = await readStreamInPages(store, stream, 100, "forwards");
    expect(forwards.map((page) => page.length)).toEqual([3, 3, 3, 1]);
    // A page the budget cut says so; the last, short because the stream ends, does not.
    expect(forwards.map((page) => page.cut === true)).toEqual([true, true, true, false]);
    expect(ids(forwards.flat())).toEqual(written);
    const backwards = await readStreamInPages(store, stream, 100, "backwards");
    expect(backwards.map((page) => page.length)).toEqual([3, 3, 3, 1]);
    expect(backwards.map((page) => page.cut === true)).toEqual([true, true, true, false]);
    expect(ids(backwards.flat())).toEqual([...written].reverse());
    // The limit still holds below the budget.
    const byLimit = await readStreamInPages(store, stream, 2, "forwards");
    expect(byLimit.map((page) => page.length)).toEqual([2, 2, 2, 2, 2]);
    expect(byLimit.some((page) => page.cut === true)).toBe(false);
    // From a version: the page starts there.
    expect((await store.readStream(stream, { from: 5n, limit: 100 })).map((e) => e.streamVersion)).toEqual([5n, 6n, 7n]);
    expect((await store.readStream(stream, { from: 5n, direction: "backwards", limit: 100 })).map((e) => e.streamVersion)).toEqual([5n, 4n, 3n]);
    // Without a limit, readStream is not a page: the whole stream at once.
    expect(ids(await store.readStream(stream))).toEqual(written);
    expect(ids(await store.readStream(stream, { direction: "backwards" }))).toEqual([...written].reverse());
  },
  "a stream's event larger than the page budget is read alone, and the stream goes on after it": async ({ storeWith, prefix }: Context) => {
    const store = await storeWith({ maxPageBytes: PAGE_BYTES });
    const stream = `${prefix}huge`;
    const sent = [event("Small"), event("Huge", { blob: incompressible(PAGE_BYTES * 1.5) }), event("Small"), event("Small")];
    await store.append(stream, sent.slice(0, 2));
    await store.append(stream, sent.slice(2));
    const [first, huge, ...rest] = sent.map((e) => e.id);
    const forwards = await readStreamInPages(store, stream, 100, "forwards");
    expect(forwards.map(ids)).toEqual([[first], [huge], rest]);
    expect(forwards.map((page) => page.cut === true)).toEqual([true, true, false]);
    expect((await readStreamInPages(store, stream, 100, "backwards")).map(ids)).toEqual([[...rest].reverse(), [huge], [first]]);
    const [alone] = await store.readStream(stream, { from: 1n, limit: 100 });
    expect((alone.data as { blob: string }).blob).toBe(sent[1].data.blob);
  },
  "a subscription catches up, then goes live without loss or duplicates across the switch": async ({ store, prefix }: Context) => {
    const written: string[] = [];
    const write = async (count: number) => {
      for (let n = 0; n < count; n += 1) {
        const batch = events(1 + (n % 2));
        written.push(...batch.map((e) => e.id));
        await store.append(`${prefix}live${n % 4}`, batch);
      }
    };
    await write(20);
    let writing: Promise<void> | null = null;
    const received = await take(store, 60, {
      streamPrefixes: [prefix],
      // Start writing while the catch-up is still being delivered, so appends land across the switch.
      onEvent: () => void (writing ??= write(20)),
    });
    await writing;
    expect(ids(received)).toEqual(written);
    expectStrictlyOrdered(received);
    expect(ids(await store.readAll({ filter: { streamPrefixes: [prefix] } }))).toEqual(ids(received));
  },
  "a subscription resumes after a checkpoint": async ({ store, prefix }: Context) => {
    await store.append(`${prefix}r`, events(10));
    const firstFive = await take(store, 5, { streamPrefixes: [prefix] });
    const checkpoint = firstFive[4].position;
    await store.append(`${prefix}r`, events(2));
    const rest = await take(store, 7, { streamPrefixes: [prefix], after: checkpoint });
    expect(rest.map((e) => e.streamVersion)).toEqual([5n, 6n, 7n, 8n, 9n, 10n, 11n]);
  },
  "a subscription applies its filter to catch-up and live events": async ({ store, prefix }: Context) => {
    await store.append(`${prefix}run-1`, [event("RunStarted"), event("Noise")]);
    await store.append(`${prefix}other-1`, [event("RunStarted")]);
    setTimeout(() => void store.append(`${prefix}run-2`, [event("Noise"), event("RunStarted")]), 100);
    const received = await take(store, 2, { streamPrefixes: [`${prefix}run-`], eventTypes: ["RunStarted"] });
    expect(received.map((e) => `${e.streamId.slice(prefix.length)}:${e.type}`)).toEqual(["run-1:RunStarted", "run-2:RunStarted"]);
  },
  "a subscription with a small pageSize still delivers every event, in order": async ({ store, prefix }: Context) => {
    await store.append(`${prefix}p`, events(5));
    const controller = new AbortController();
    const received: RecordedEvent[] = [];
    for await (const recorded of store.subscribeAll({ filter: { streamPrefixes: [prefix] }, signal: controller.signal, pageSize: 2 })) {
      received.push(recorded);
      if (received.length === 5) controller.abort();
    }
    expect(received.map((e) => e.streamVersion)).toEqual([0n, 1n, 2n, 3n, 4n]);
  },
  "aborting the signal ends a waiting subscription": async ({ store, prefix }: Context) => {
    await store.append(`${prefix}z`, events(1));
    const controller = new AbortController();
    const received: RecordedEvent[] = [];
    let aborted = 0;
    for await (const recorded of store.subscribeAll({ filter: { streamPrefixes: [prefix] }, signal: controller.signal })) {
      received.push(recorded);
      // Aborted once the one event is in, while the subscription waits for more (a fixed delay
      // from the start could land before a slow machine delivered the event).
      setTimeout(() => {
        aborted = Date.now();
        controller.abort();
      }, 200);
    }
    expect(received).toHaveLength(1);
    expect(Date.now() - aborted).toBeLessThan(2_000);
  },
  "finished subscriptions leave nothing on their caller's signal": async ({ store, prefix }: Context) => {
    await store.append(`${prefix}s`, events(1));
    // Outlives its subscriptions, as a server's or a worker's signal does: each one used to add
    // an entry to it (AbortSignal.any on Node 20) that stayed for the signal's lifetime.
    const caller = new AbortController();
    for (let i = 0; i < 50; i += 1) {
      for await (const recorded of store.subscribeAll({ filter: { streamPrefixes: [prefix] }, signal: caller.signal })) {
        expect(recorded.streamId).toBe(`${prefix}s`);
        break;
      }
    }
    expect(abortLoad(caller.signal)).toBe(0);
  },
  "closing the store ends its subscriptions": async ({ store, prefix }: Context) => {
    await store.append(`${prefix}c`, events(1));
    const received: RecordedEvent[] = [];
    const consuming = (async () => {
      for await (const recorded of store.subscribeAll({ filter: { streamPrefixes: [prefix] } })) received.push(recorded);
    })();
    // Closed once the one event is in, while the subscription waits for more.
    while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 150));
    await store.close();
    await consuming;
    expect(received).toHaveLength(1);
  },
  "bad input is refused before anything is written": async ({ store, prefix }: Context) => {
    const refused = async (promise: Promise<unknown>, field: RegExp) => {
      const error = (await promise.then(() => null, (caught: unknown) => caught)) as Error & { code?: string };
      expect(error?.message).toMatch(field);
      expect(error?.code).toBe("validation");
    };
    await refused(store.append("../etc/passwd", events(1)), /streamId/);
    await refused(store.append("run-1'; DROP TABLE messages;--", events(1)), /streamId/);
    await refused(store.append(`${prefix}a b`, events(1)), /streamId/);
    await refused(store.append(`${prefix}ok`, []), /events/);
    await refused(store.append(`${prefix}ok`, [{ ...event(), id: "not-a-uuid" }]), /events\[0\]\.id/);
    await refused(store.append(`${prefix}ok`, [event("Big", { blob: "x".repeat(8 * 1024 * 1024) })]), /over the 8 MB limit/);
    await refused(store.append(`${prefix}ok`, events(1), { expectedVersion: -1n }), /expectedVersion/);
    expect(await store.streamVersion(`${prefix}ok`)).toBeNull();
    // The largest input the edge accepts (a 2 MB catalog, stored twice) is well over 1 MB.
    expect((await store.append(`${prefix}ok`, [event("Fits", { blob: "x".repeat(7 * 1024 * 1024) })])).nextExpectedVersion).toBe(0n);
  },
};

export function eventStoreContract(name: string, factory: EventStoreFactory, options: EventStoreContractOptions = {}): void {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    let tuned: EventStore[] = [];
    const storeWith = async (tuning: ContractTuning) => {
      const opened = await factory(tuning);
      tuned.push(opened);
      return opened;
    };
    beforeEach(async () => {
      store = await factory();
    });
    afterEach(async () => {
      await Promise.all(tuned.map((opened) => opened.close()));
      tuned = [];
      await store?.close();
    });
    for (const [caseName, run] of Object.entries(cases) as Array<[ContractCase, (context: Context) => Promise<void>]>) {
      const reason = options.skip?.[caseName];
      if (reason) {
        it.skip(`${caseName} (skipped: ${reason})`, () => undefined);
        continue;
      }
      it(caseName, () => run({ store, storeWith, prefix: `t${randomUUID().slice(0, 8)}-` }));
    }
  });
}
