import { describe, expect, it } from "vitest";
import type { LogPage, SizedPage } from "../page.js";
import type { EventFilter, LogPosition, RecordedEvent } from "../port.js";
import { comparePositions, matchesFilter } from "../position.js";
import { LogTail } from "./logTail.js";

function event(i: number, type: string): RecordedEvent {
  return { id: `e${i}`, type, schemaVersion: 1, data: { i }, metadata: {}, streamId: `s-${i % 3}`, streamVersion: BigInt(i), position: { commit: BigInt(i), prepare: BigInt(i) }, recordedAt: new Date(0) };
}

/**
 * A log the test grows, read as the store reads it (pages of `limit` events, cut once they reach
 * `maxPageBytes`), counting the rows it hands out. Events are 1 byte unless added with `bytes`.
 */
function log(maxPageBytes = Infinity) {
  const events: RecordedEvent[] = [];
  const sizes = new Map<string, number>();
  const stats = { reads: 0, rows: 0 };
  const read = async (after: LogPosition | undefined, limit: number, filter: EventFilter | undefined): Promise<SizedPage> => {
    stats.reads += 1;
    const page: SizedPage = { events: [], bytes: [], full: false };
    let used = 0;
    for (const e of events.filter((e) => (!after || comparePositions(e.position, after) > 0) && matchesFilter(e, filter))) {
      const bytes = sizes.get(e.id) ?? 1;
      if (page.events.length === limit || (page.events.length > 0 && used + bytes > maxPageBytes)) return { ...page, full: true };
      page.events.push(e);
      page.bytes.push(bytes);
      used += bytes;
      stats.rows += 1;
    }
    return page;
  };
  const add = (n: number, bytes = 1) => {
    for (let k = 0; k < n; k++) {
      events.push(event(events.length + 1, events.length % 2 ? "B" : "A"));
      sizes.set(events[events.length - 1].id, bytes);
    }
  };
  return { events, stats, read, add };
}

const ids = (page: LogPage | RecordedEvent[]) => (Array.isArray(page) ? page : page.events).map((e) => e.id);

describe("LogTail", () => {
  it("answers every reader as the log would, reading each event from the database once", async () => {
    const db = log();
    const tail = new LogTail(db.read, { pageSize: 4 });
    const expected = (after: LogPosition | undefined, limit: number, filter?: EventFilter) => db.read(after, limit, filter).then(ids);
    db.add(10);
    const all = (await tail.read(undefined, 100, undefined)).events;
    expect(ids(all)).toEqual(db.events.map((e) => e.id));
    const rowsAfterFirst = db.stats.rows;
    // A filtered reader inside the window, then new events past its end.
    expect(ids(await tail.read(all[2].position, 100, { eventTypes: ["B"] }))).toEqual(await expected(all[2].position, 100, { eventTypes: ["B"] }));
    db.stats.rows = rowsAfterFirst;
    db.add(5);
    expect(ids(await tail.read(all[9].position, 3, undefined))).toEqual(ids(db.events.slice(10, 13)));
    expect(ids(await tail.read(all[5].position, 100, { eventTypes: ["A"] }))).toEqual(await expected(all[5].position, 100, { eventTypes: ["A"] }));
    expect(db.stats.rows - rowsAfterFirst).toBeLessThanOrEqual(5 + 8); // the 5 new ones, plus what the checks above read themselves
  });

  it("sends readers behind its window, and filtered readers before any unfiltered one, to the database", async () => {
    const db = log();
    const tail = new LogTail(db.read, { pageSize: 4, maxEvents: 5 });
    db.add(12);
    expect(ids(await tail.read(undefined, 100, { eventTypes: ["A"] }))).toEqual(ids(db.events.filter((e) => e.type === "A")));
    expect(ids(await tail.read(undefined, 100, undefined))).toHaveLength(12);
    // The window kept the last 5: a reader from the start is answered by the database, whole.
    expect(ids(await tail.read(db.events[1].position, 100, undefined))).toEqual(ids(db.events.slice(2)));
  });

  it("hands out copies, so a reader changing an event does not change what the next reader gets", async () => {
    const db = log();
    const tail = new LogTail(db.read);
    db.add(2);
    const [first] = (await tail.read(undefined, 10, undefined)).events;
    (first as { type: string }).type = "changed";
    expect((await tail.read(undefined, 10, undefined)).events[0].type).toBe("A");
  });

  it("answers past its end without the database once it holds every noted append, unless asked to be fresh", async () => {
    const db = log();
    const tail = new LogTail(db.read, { pageSize: 4 });
    db.add(6);
    tail.noteAppended(db.events[5].position);
    expect(ids(await tail.read(undefined, 100, undefined))).toHaveLength(6);
    const reads = db.stats.reads;
    expect(await tail.read(db.events[5].position, 100, undefined)).toEqual({ events: [], full: false });
    expect(db.stats.reads).toBe(reads);
    // An append noted past the window is read; one not noted (another writer) only by a fresh read.
    db.add(2);
    tail.noteAppended(db.events[6].position);
    expect(ids(await tail.read(db.events[5].position, 100, undefined))).toEqual(ids(db.events.slice(6)));
    db.add(1);
    expect(await tail.read(db.events[7].position, 100, undefined)).toEqual({ events: [], full: false });
    expect(ids(await tail.read(db.events[7].position, 100, undefined, true))).toEqual([db.events[8].id]);
  });
  it("takes an append's events into the window once it holds every earlier append, and reads nothing for them", async () => {
    const db = log();
    const tail = new LogTail(db.read, { pageSize: 4 });
    db.add(3);
    // Before the window has caught up with a noted append, an append's events are not taken.
    tail.noteAppended(db.events[2].position, () => db.events.slice(2));
    expect(ids(await tail.read(undefined, 100, undefined))).toHaveLength(3);
    db.add(2);
    let asked = 0;
    tail.noteAppended(db.events[4].position, () => ((asked += 1), db.events.slice(3, 5)));
    expect(asked).toBe(1);
    const reads = db.stats.reads;
    expect(ids(await tail.read(db.events[2].position, 100, undefined))).toEqual(ids(db.events.slice(3)));
    expect(ids(await tail.read(undefined, 100, { eventTypes: ["A"] }))).toEqual(ids(db.events.filter((e) => e.type === "A")));
    expect(db.stats.reads).toBe(reads);
  });

  it("reads an append back when its events cannot be built", async () => {
    const db = log();
    const tail = new LogTail(db.read, { pageSize: 4 });
    db.add(1);
    tail.noteAppended(db.events[0].position);
    await tail.read(undefined, 100, undefined);
    db.add(2);
    tail.noteAppended(db.events[2].position, () => {
      throw new Error("cannot build");
    });
    expect(ids(await tail.read(db.events[0].position, 100, undefined))).toEqual(ids(db.events.slice(1)));
  });

  it("keeps a reader's answer whole when appends are taken while it reads pages", async () => {
    const db = log();
    let racing = false;
    const tail = new LogTail(async (after, limit, filter) => {
      // An append commits (and is noted, so taken) just before this page is read: the page holds
      // it too, and more than a page's worth lies past where the reader's answer has got to.
      if (racing && db.events.length < 20) {
        db.add(5);
        tail.noteAppended(db.events[db.events.length - 1].position, () => db.events.slice(-5));
      }
      return db.read(after, limit, filter);
    }, { pageSize: 4 });
    db.add(2);
    tail.noteAppended(db.events[1].position);
    expect(ids(await tail.read(undefined, 100, undefined))).toEqual(ids(db.events.slice(0, 2)));
    racing = true;
    const answer = await tail.read(db.events[1].position, 100, undefined, true);
    racing = false;
    expect(ids(answer)).toEqual(ids(db.events.slice(2)));
    expect(ids(await tail.read(undefined, 100, undefined))).toEqual(ids(db.events));
  });

  it("cuts its answers by bytes as the store cuts pages, reading on past a database page cut short", async () => {
    const db = log(10);
    const tail = new LogTail(db.read, { pageSize: 4, maxPageBytes: 10 });
    db.add(3, 4);
    db.add(1, 8);
    db.add(2, 1);
    db.add(1, 25);
    db.add(1, 1);
    const pages: Array<{ ids: string[]; full: boolean }> = [];
    let after: LogPosition | undefined;
    for (;;) {
      const page = await tail.read(after, 100, undefined);
      if (page.events.length === 0) break;
      pages.push({ ids: ids(page), full: page.full });
      after = page.events[page.events.length - 1].position;
    }
    // 4+4 (a third 4 would pass 10), 4 (the 8 would), 8+1+1, the 25 alone, then the last 1.
    expect(pages).toEqual([
      { ids: ["e1", "e2"], full: true },
      { ids: ["e3"], full: true },
      { ids: ["e4", "e5", "e6"], full: true },
      { ids: ["e7"], full: true },
      { ids: ["e8"], full: false },
    ]);
  });

  it("keeps no more than maxBytes of events in its window, sending readers behind it to the database", async () => {
    const db = log();
    const tail = new LogTail(db.read, { pageSize: 4, maxBytes: 10 });
    db.add(6, 4);
    tail.noteAppended(db.events[5].position);
    expect(ids(await tail.read(undefined, 100, undefined))).toHaveLength(6);
    const reads = db.stats.reads;
    // The window kept the last two events (8 bytes; three would be 12).
    expect(ids(await tail.read(db.events[3].position, 100, undefined))).toEqual(["e5", "e6"]);
    expect(db.stats.reads).toBe(reads);
    expect(ids(await tail.read(db.events[2].position, 100, undefined))).toEqual(["e4", "e5", "e6"]);
    expect(db.stats.reads).toBe(reads + 1);
  });

  it("counts an append's events by its text, shared evenly, and trims the window by them", async () => {
    const db = log();
    const tail = new LogTail(db.read, { pageSize: 4, maxBytes: 10 });
    db.add(1);
    tail.noteAppended(db.events[0].position);
    await tail.read(undefined, 100, undefined);
    db.add(2, 6);
    tail.noteAppended(db.events[2].position, () => db.events.slice(1, 3), 12);
    const reads = db.stats.reads;
    // 1 + 6 + 6 is over 10: the window holds only the last, so a reader after the first is sent to the database.
    expect(ids(await tail.read(db.events[1].position, 100, undefined))).toEqual(["e3"]);
    expect(db.stats.reads).toBe(reads);
    expect(ids(await tail.read(db.events[0].position, 100, undefined))).toEqual(["e2", "e3"]);
    expect(db.stats.reads).toBe(reads + 1);
  });
});
