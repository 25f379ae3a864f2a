// Reading a stream page by page: pages are cut by bytes (a catalog's events may hold 4 MB of JSON
// each), a cut page says so, and loadAggregate folds one page at a time.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { beforeEach, describe, expect, it } from "vitest";
import type { EventStore, ReadStreamOptions, RecordedEvent } from "../ports/eventStore.js";
import { forEachStreamPage, handleCommand, loadAggregate, readWholeStream } from "./handleCommand.js";
import { catalogAggregate } from "./catalog/catalogAggregate.js";
import { lastCatalogImport } from "./catalog/lastImport.js";
import { catalogStream } from "../events/streams.js";
import { InMemoryEventStore } from "./testing/inMemoryEventStore.js";
import { fixedClock, sequentialIds } from "./testing/fixed.js";
import { catalogImport } from "./testing/fixtures.js";

const STREAM = catalogStream("acme", "support_desk");
/** The page budget: each import below is ~10 KB of JSON, so a page holds three of them. */
const BUDGET = 32 * 1024;
const IMPORTS = 10;

const deps = () => ({ clock: fixedClock(), ids: sequentialIds(), context: { tenant: "acme", actor: "user-1" } });
const digest = (n: number) => n.toString(16).padStart(64, "0");
/** A distinct import: its own digest and a document of ~10 KB. */
const importNo = (n: number) => ({ ...catalogImport(digest(n), [`s${n}`]), canonical_yaml: `---\ncatalog: support_desk\n# ${String(n).repeat(10_000 / String(n).length)}\n` });
const bytesOf = (e: RecordedEvent) => JSON.stringify(e.data).length + JSON.stringify(e.metadata).length;

interface Read {
  options: ReadStreamOptions;
  events: number;
  bytes: number;
}

/** The store, recording what each readStream returned (and calling `onRead` first). */
function recording(inner: EventStore, onRead: () => void | Promise<void> = () => undefined): EventStore & { reads: Read[] } {
  const reads: Read[] = [];
  return {
    append: (...args) => inner.append(...args),
    readAll: (...args) => inner.readAll(...args),
    subscribeAll: (...args) => inner.subscribeAll(...args),
    streamVersion: (...args) => inner.streamVersion(...args),
    lastPosition: () => inner.lastPosition(),
    close: () => inner.close(),
    reads,
    async readStream(streamId, options = {}) {
      await onRead();
      const page = await inner.readStream(streamId, options);
      reads.push({ options, events: page.length, bytes: page.reduce((n, e) => n + bytesOf(e), 0) });
      return page;
    },
  };
}

let store: InMemoryEventStore;

beforeEach(async () => {
  store = new InMemoryEventStore({ maxPageBytes: BUDGET });
  for (let n = 1; n <= IMPORTS; n++) await handleCommand(store, catalogAggregate, STREAM, importNo(n), deps());
});

describe("stream pages cut by bytes", () => {
  it("the test store cuts a page with a limit once its events reach the budget, never to nothing", async () => {
    const page = await store.readStream(STREAM, { from: "start", limit: 1000 });
    expect(page.length).toBeGreaterThan(1);
    expect(page.length).toBeLessThan(IMPORTS);
    expect(page.reduce((n, e) => n + bytesOf(e), 0)).toBeLessThanOrEqual(BUDGET);
    // Without a limit: every event, no budget.
    expect(await store.readStream(STREAM)).toHaveLength(IMPORTS);
    // An event over the budget is a page of its own.
    const tiny = new InMemoryEventStore({ maxPageBytes: 10 });
    tiny.appendNow("s", [{ id: "x", type: "T", schemaVersion: 1, data: { big: "x".repeat(100) }, metadata: {} }]);
    expect(await tiny.readStream("s", { limit: 10 })).toHaveLength(1);
  });

  it("readWholeStream reads on past a short page to the end of the stream", async () => {
    const recorded = await readWholeStream(store, STREAM);
    expect(recorded.map((e) => e.streamVersion)).toEqual(Array.from({ length: IMPORTS }, (_, i) => BigInt(i)));
  });

  it("a stream that fits one page costs one read (the page is short and not cut), a cut one reads on", async () => {
    const small = recording(new InMemoryEventStore({ maxPageBytes: BUDGET }));
    await handleCommand(small, catalogAggregate, STREAM, importNo(1), deps());
    small.reads.length = 0;
    expect((await loadAggregate(small, catalogAggregate, STREAM)).version).toBe(0n);
    expect(small.reads).toHaveLength(1);
    const large = recording(store);
    await loadAggregate(large, catalogAggregate, STREAM);
    // Pages of three imports, the last short and not cut: no empty read after it.
    expect(large.reads.map((read) => read.events)).toEqual([3, 3, 3, 1]);
  });

  it("forEachStreamPage hands over a stream forwards and backwards in short pages, every event once, in order", async () => {
    const versions = async (direction: "forwards" | "backwards", streamId = STREAM) => {
      const pages: bigint[][] = [];
      await forEachStreamPage(store, streamId, (page) => void pages.push(page.map((e) => e.streamVersion)), direction);
      return pages;
    };
    const all = Array.from({ length: IMPORTS }, (_, i) => BigInt(i));
    const forwards = await versions("forwards");
    expect(forwards.length).toBeGreaterThan(2);
    expect(forwards.flat()).toEqual(all);
    const backwards = await versions("backwards");
    expect(backwards.length).toBeGreaterThan(2);
    expect(backwards.flat()).toEqual([...all].reverse());
    expect(await versions("forwards", "catalog-acme.none")).toEqual([]);
    expect(await versions("backwards", "catalog-acme.none")).toEqual([]);
    // Stopped by the visitor: no page is read after it.
    const reads = recording(store);
    await forEachStreamPage(reads, STREAM, () => false);
    expect(reads.reads).toHaveLength(1);
  });
});

describe("loadAggregate over a stream larger than a page", () => {
  it("folds every import, reading pages no larger than the budget", async () => {
    const reads = recording(store);
    const { state, version } = await loadAggregate(reads, catalogAggregate, STREAM);
    expect(version).toBe(BigInt(IMPORTS - 1));
    expect(state).toMatchObject({ status: "active", digest: digest(IMPORTS), imports: IMPORTS });
    expect(state.products[0].sets[0].scenarios.map((s) => s.key)).toEqual([`s${IMPORTS}`]);
    expect(reads.reads.length).toBeGreaterThan(3);
    for (const read of reads.reads) expect(read.events === 1 || read.bytes <= BUDGET).toBe(true);
    // No read came back empty: the last page, short and not cut, was the end.
    expect(reads.reads.some((r) => r.events === 0)).toBe(false);
  });

  it("folds each page before it reads the next", async () => {
    let folded = 0;
    const counting = { ...catalogAggregate, evolve: (...args: Parameters<typeof catalogAggregate.evolve>) => (folded++, catalogAggregate.evolve(...args)) };
    const foldedAtRead: number[] = [];
    const reads = recording(store, () => void foldedAtRead.push(folded));
    await loadAggregate(reads, counting, STREAM);
    // Each read starts once every event read before it was folded.
    const readBefore = reads.reads.map((_, i) => reads.reads.slice(0, i).reduce((n, r) => n + r.events, 0));
    expect(foldedAtRead).toEqual(readBefore);
  });

  it("holds no earlier page while it reads the next (the events are collected)", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const handedOut: Array<Array<WeakRef<RecordedEvent>>> = [];
    const alive: number[] = [];
    const reads = recording(
      {
        ...recording(store),
        // Copies, so nothing but the reader holds them; the test store keeps its own.
        readStream: async (id, options) => {
          const page = structuredClone(await store.readStream(id, options));
          handedOut.push(page.map((e) => new WeakRef(e)));
          return page;
        },
      },
      async () => {
        // A turn of the event loop lets go of WeakRefs made in the last one; then collect.
        await new Promise((resolve) => setTimeout(resolve, 0));
        gc();
        alive.push(handedOut.flat().filter((ref) => ref.deref() !== undefined).length);
      },
    );
    const { state } = await loadAggregate(reads, catalogAggregate, STREAM);
    expect(state.imports).toBe(IMPORTS);
    expect(handedOut.length).toBeGreaterThan(3);
    expect(alive).toEqual(handedOut.map(() => 0));
  });

  it("importCatalog decides as before: the same document appends nothing, a changed one is imported", async () => {
    const reads = recording(store);
    expect((await handleCommand(reads, catalogAggregate, STREAM, importNo(IMPORTS), deps())).events).toEqual([]);
    const changed = await handleCommand(reads, catalogAggregate, STREAM, importNo(IMPORTS + 1), deps());
    expect(changed.events.map((e) => [e.type, e.streamVersion])).toEqual([["CatalogImported", BigInt(IMPORTS)]]);
    expect(changed.state.imports).toBe(IMPORTS + 1);
    for (const read of reads.reads) expect(read.events === 1 || read.bytes <= BUDGET).toBe(true);
  });

  it("lastCatalogImport reads the stream's end only", async () => {
    const reads = recording(store);
    expect((await lastCatalogImport(reads, "acme", "support_desk"))?.digest).toBe(digest(IMPORTS));
    expect(reads.reads).toHaveLength(1);
    expect(await lastCatalogImport(reads, "acme", "none")).toBeNull();
    // Removed since: none; imported again after: that one.
    await handleCommand(store, catalogAggregate, STREAM, { type: "RemoveCatalog", tenant: "acme", key: "support_desk" }, deps());
    expect(await lastCatalogImport(store, "acme", "support_desk")).toBeNull();
    await handleCommand(store, catalogAggregate, STREAM, importNo(1), deps());
    expect((await lastCatalogImport(store, "acme", "support_desk"))?.digest).toBe(digest(1));
  });
});
