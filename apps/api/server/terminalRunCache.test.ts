import { describe, expect, it } from "vitest";
import { TerminalRunCache } from "./terminalRunCache.js";

describe("TerminalRunCache", () => {
  it("reads a running run every time and a completed one once", async () => {
    const cache = new TerminalRunCache();
    let loads = 0;
    const load = async () => ++loads;
    await cache.read("acme", "r1", "RUNNING", "results", load);
    await cache.read("acme", "r1", "RUNNING", "results", load);
    expect(loads).toBe(2);
    expect(await cache.read("acme", "r1", "COMPLETED", "results", load)).toBe(3);
    expect(await cache.read("acme", "r1", "COMPLETED", "results", load)).toBe(3);
    expect(await cache.read("globex", "r1", "COMPLETED", "results", load)).toBe(4);
  });

  it("keeps run rows only once terminal, and forgets the least recently used runs", async () => {
    const cache = new TerminalRunCache({ maxRuns: 2 });
    let status = "RUNNING";
    let loads = 0;
    const row = async () => ({ id: "r1", status, n: ++loads });
    expect(await cache.whenTerminal("acme", "r1", "run", row)).toMatchObject({ n: 1 });
    status = "COMPLETED";
    expect(await cache.whenTerminal("acme", "r1", "run", row)).toMatchObject({ n: 2 });
    expect(await cache.whenTerminal("acme", "r1", "run", row)).toMatchObject({ n: 2 });
    await cache.read("acme", "r2", "FAILED", "x", async () => 0);
    await cache.read("acme", "r3", "FAILED", "x", async () => 0);
    expect(await cache.whenTerminal("acme", "r1", "run", row)).toMatchObject({ n: 3 });
  });

  it("forgets every run when cleared (a rebuild of the read models), and keeps no load begun before the clear", async () => {
    const cache = new TerminalRunCache();
    let loads = 0;
    const row = async () => ({ id: "r1", status: "COMPLETED", n: ++loads });
    expect(await cache.whenTerminal("acme", "r1", "run", row)).toMatchObject({ n: 1 });
    await cache.read("acme", "r1", "COMPLETED", "results", async () => "before");
    cache.clear();
    expect(cache.size).toBe(0);
    expect(await cache.whenTerminal("acme", "r1", "run", row)).toMatchObject({ n: 2 });
    expect(await cache.read("acme", "r1", "COMPLETED", "results", async () => "after")).toBe("after");
    // Loads in flight across a clear: read before the rebuild, answered, never kept.
    cache.clear();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slowRow = whenReleased(gate, row);
    const pendingRow = cache.whenTerminal("acme", "r2", "run", slowRow);
    const pendingResults = cache.read("acme", "r2", "COMPLETED", "results", whenReleased(gate, async () => "old"));
    cache.clear();
    release();
    expect(await pendingRow).toMatchObject({ n: 3 });
    expect(await pendingResults).toBe("old");
    expect(await cache.whenTerminal("acme", "r2", "run", row)).toMatchObject({ n: 4 });
    expect(await cache.read("acme", "r2", "COMPLETED", "results", async () => "new")).toBe("new");
  });

  /** A load that counts its calls and answers `chars` characters (a byte each, as estimated). */
  const counting = (chars: number) => {
    const load = async () => {
      load.calls += 1;
      return "x".repeat(chars);
    };
    load.calls = 0;
    return load;
  };

  it("forgets the least recently used runs once the runs kept hold more bytes than the limit", async () => {
    const cache = new TerminalRunCache({ maxBytes: 10_000 });
    const [big1, small, big2] = [counting(6_000), counting(2_000), counting(6_000)];
    await cache.read("acme", "big-1", "COMPLETED", "results", big1);
    await cache.read("acme", "small", "COMPLETED", "results", small);
    expect(cache.size).toBe(2);
    // 6,000 + 2,000 + 6,000 bytes > 10,000: the oldest (big-1) goes, the small one stays.
    await cache.read("acme", "big-2", "COMPLETED", "results", big2);
    expect(cache.size).toBe(2);
    for (const [id, load] of [["small", small], ["big-2", big2], ["big-1", big1]] as const) await cache.read("acme", id, "COMPLETED", "results", load);
    expect([small.calls, big2.calls, big1.calls]).toEqual([1, 1, 2]);
  });

  it("serves a run over the byte budget alone and does not keep it (a ~620 MB run sat in an idle API)", async () => {
    const cache = new TerminalRunCache({ maxBytes: 10_000 });
    const [huge, small] = [counting(12_000), counting(200)];
    await cache.read("acme", "small", "COMPLETED", "results", small);
    expect(await cache.read("acme", "huge", "COMPLETED", "results", huge)).toHaveLength(12_000);
    expect(await cache.read("acme", "huge", "COMPLETED", "results", huge)).toHaveLength(12_000);
    expect(huge.calls).toBe(2);
    await cache.read("acme", "small", "COMPLETED", "results", small);
    expect(small.calls).toBe(1); // the huge one did not push it out
    expect(cache.size).toBe(1);
  });

  it("keeps a run of ordinary size by default: 2,000 x 5 pairs whose 1 KB answers its history holds four times", async () => {
    // Estimated at two bytes a character, such a history (the answers in each event and in each
    // parsed copy) passed the old 64 MB default, and every report read of the run reloaded it.
    const cache = new TerminalRunCache();
    const answer = "a".repeat(1_000);
    const history = async () => {
      history.calls += 1;
      return Array.from({ length: 10_000 }, () => ({ replay: answer, scored: answer, parsedReplay: answer, parsedScored: answer }));
    };
    history.calls = 0;
    await cache.read("acme", "r1", "COMPLETED", "history", history);
    await cache.read("acme", "r1", "COMPLETED", "history", history);
    expect(history.calls).toBe(1);
  });

  it("weighs a run by every field kept of it, a row read whenTerminal too", async () => {
    const cache = new TerminalRunCache({ maxBytes: 10_000 });
    const row = { id: "r1", status: "COMPLETED", notes: "x".repeat(4_000) };
    await cache.whenTerminal("acme", "r1", "run", async () => row);
    await cache.read("acme", "r1", "COMPLETED", "results", counting(2_000));
    expect(cache.size).toBe(1);
    // ~4,000 + 2,000 + 5,000 bytes > 10,000: the run is over the budget and goes.
    const history = counting(5_000);
    await cache.read("acme", "r1", "COMPLETED", "history", history);
    await cache.read("acme", "r1", "COMPLETED", "history", history);
    expect(history.calls).toBe(2);
  });

  it("does not keep a failed load", async () => {
    const cache = new TerminalRunCache();
    await expect(cache.read("acme", "r1", "COMPLETED", "x", async () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    await new Promise((r) => setTimeout(r, 0));
    expect(await cache.read("acme", "r1", "COMPLETED", "x", async () => 7)).toBe(7);
  });

  it("loads without keeping once a run holds maxFieldsPerRun fields", async () => {
    const cache = new TerminalRunCache({ maxFieldsPerRun: 3 });
    let loads = 0;
    const load = async () => ++loads;
    for (const field of ["a", "b", "c", "d", "e"]) await cache.read("acme", "r1", "COMPLETED", field, load);
    expect(cache.fieldCount).toBe(3);
    expect(await cache.read("acme", "r1", "COMPLETED", "a", load)).toBe(1);
    expect(await cache.read("acme", "r1", "COMPLETED", "e", load)).toBe(6);
    await cache.whenTerminal("acme", "r1", "run", async () => ({ status: "COMPLETED" }));
    expect(cache.fieldCount).toBe(3);
  });
});

/** `load`, once `gate` opens. */
function whenReleased<T>(gate: Promise<void>, load: () => Promise<T>): () => Promise<T> {
  return async () => {
    await gate;
    return load();
  };
}
