import { describe, expect, it } from "vitest";
import type { EventFilter, LogPosition, RecordedEvent } from "../port.js";
import { comparePositions, matchesFilter } from "../position.js";
import { LogTail } from "./logTail.js";

function event(i: number, type: string): RecordedEvent {
  return { id: `e${i}`, type, schemaVersion: 1, data: { i }, metadata: {}, streamId: `s-${i % 3}`, streamVersion: BigInt(i), position: { commit: BigInt(i), prepare: BigInt(i) }, recordedAt: new Date(0) };
}

/** A log the test grows, read as the store reads it, counting the rows it hands out. */
function log() {
  const events: RecordedEvent[] = [];
  const stats = { reads: 0, rows: 0 };
  const read = async (after: LogPosition | undefined, limit: number, filter: EventFilter | undefined) => {
    stats.reads += 1;
    const page = events.filter((e) => (!after || comparePositions(e.position, after) > 0) && matchesFilter(e, filter)).slice(0, limit);
    stats.rows += page.length;
    return page;
  };
  return { events, stats, read, add: (n: number) => { for (let k = 0; k < n; k++) events.push(event(events.length + 1, events.length % 2 ? "B" : "A")); } };
}

const ids = (page: RecordedEvent[]) => page.map((e) => e.id);

describe("LogTail", () => {
  it("answers every reader as the log would, reading each event from the database once", async () => {
    const db = log();
    const tail = new LogTail(db.read, { pageSize: 4 });
    const expected = (after: LogPosition | undefined, limit: number, filter?: EventFilter) => db.read(after, limit, filter).then(ids);
    db.add(10);
    const all = await tail.read(undefined, 100, undefined);
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
    const [first] = await tail.read(undefined, 10, undefined);
    (first as { type: string }).type = "changed";
    expect((await tail.read(undefined, 10, undefined))[0].type).toBe("A");
  });

  it("answers past its end without the database once it holds every noted append, unless asked to be fresh", async () => {
    const db = log();
    const tail = new LogTail(db.read, { pageSize: 4 });
    db.add(6);
    tail.noteAppended(db.events[5].position);
    expect(ids(await tail.read(undefined, 100, undefined))).toHaveLength(6);
    const reads = db.stats.reads;
    expect(await tail.read(db.events[5].position, 100, undefined)).toEqual([]);
    expect(db.stats.reads).toBe(reads);
    // An append noted past the window is read; one not noted (another writer) only by a fresh read.
    db.add(2);
    tail.noteAppended(db.events[6].position);
    expect(ids(await tail.read(db.events[5].position, 100, undefined))).toEqual(ids(db.events.slice(6)));
    db.add(1);
    expect(await tail.read(db.events[7].position, 100, undefined)).toEqual([]);
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
});
