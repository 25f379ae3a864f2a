import { describe, expect, it } from "vitest";
import { handleCommand, readWholeStream, runAggregate, runStream, type RecordedEvent } from "@verdict/domain";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { seedRun, testClock, testIds } from "./testing.js";
import { Redrives } from "./redrives.js";
import type { TrackedRun } from "./trackedRun.js";
import { refusedStartAction, watchdogAction } from "./watchdog.js";

const STALL_MS = 60_000;
const HOUR = 3_600_000;
const settings = { stallMs: STALL_MS, maxRedrives: 2 };
const stalled: TrackedRun = { tenant: "acme", total: 3, scored: 0, external: false, requested: false, models: ["m"], scenarios: ["a", "b", "c"], lastProgressAt: 0, redrives: 2 };

describe("watchdogAction", () => {
  it("fails a run re-driven enough when nothing progressed anywhere for the stall time", () => {
    expect(watchdogAction(stalled, STALL_MS, settings)).toMatchObject({ kind: "fail", message: expect.stringContaining("no result for 3 of 3 pairs") });
    expect(watchdogAction(stalled, STALL_MS * 3, settings, STALL_MS)).toMatchObject({ kind: "fail" });
  });

  it("waits while another run progresses: its jobs may be queued behind that run's on their partition", () => {
    // It failed such a run as "lost" though its jobs were only waiting their turn.
    expect(watchdogAction(stalled, STALL_MS * 3, settings, STALL_MS * 3 - 1)).toEqual({ kind: "wait" });
  });

  it("re-drives first, whatever else progresses", () => {
    expect(watchdogAction({ ...stalled, redrives: 0 }, STALL_MS, settings, STALL_MS - 1)).toEqual({ kind: "redrive" });
  });

  it("fails a run whose jobs the bus refused while others progress: they are queued nowhere", () => {
    const refused: TrackedRun = { ...stalled, redrives: 1, refusals: 1, lastRefusal: "This server is not the leader for that topic-partition" };
    expect(watchdogAction({ ...refused, refusals: 0 }, STALL_MS * 3, settings)).toEqual({ kind: "redrive" });
    expect(watchdogAction(refused, STALL_MS * 3, settings, STALL_MS * 3 - 1)).toEqual({
      kind: "fail",
      message:
        "its 3 replay jobs could not be published: the job bus refused them once while it took other jobs (the partition they go to may have no leader) (1 other re-drive went out); last error: This server is not the leader for that topic-partition",
    });
    // Published at its last try: a stalled run as any other, its refusals said.
    expect(watchdogAction({ ...refused, lastRefusal: undefined }, STALL_MS * 3, settings)).toMatchObject({
      kind: "fail",
      message: expect.stringContaining("after 1 re-drive 1 min apart (and 1 the job bus refused)"),
    });
  });

  it("leaves a run whose start's jobs never went out to the dispatcher's retries: neither re-driven nor failed", () => {
    // Its pairs' events set lastProgressAt; stalled or re-driven enough, it still waits.
    for (const run of [{ ...stalled, redrives: 0 }, stalled]) {
      expect(watchdogAction({ ...run, unpublished: true }, STALL_MS * 10, settings)).toEqual({ kind: "wait" });
      expect(watchdogAction(run, STALL_MS * 10, settings).kind).not.toBe("wait");
    }
  });

  it("fails a start the bus refused maxRedrives times while it took other jobs, once the first is a stall time old", () => {
    const waiting: TrackedRun = { ...stalled, redrives: 0, lastProgressAt: undefined, unpublished: true, startTries: 9, startRefusals: 2, startRefusedSince: 0 };
    const error = "This server is not the leader for that topic-partition";
    expect(refusedStartAction({ ...waiting, startRefusals: 1 }, STALL_MS * 10, settings, error)).toEqual({ kind: "wait" });
    expect(refusedStartAction(waiting, STALL_MS - 1, settings, error)).toEqual({ kind: "wait" });
    expect(refusedStartAction(waiting, STALL_MS * 2, settings, error)).toEqual({
      kind: "fail",
      message:
        "its 3 replay jobs could not be published: the job bus refused them 2 times in 2 min while it took other jobs (the partition they go to may have no leader) (9 tries since the run started, none went out); last error: This server is not the leader for that topic-partition",
    });
    // Only refusals counted: tries through an outage of the whole bus start no clock.
    expect(refusedStartAction({ ...waiting, startRefusals: 0, startRefusedSince: undefined }, STALL_MS * 10, settings, error)).toEqual({ kind: "wait" });
    // The watchdog off: tried until its jobs go out.
    expect(refusedStartAction(waiting, STALL_MS * 10, { ...settings, stallMs: null }, error)).toEqual({ kind: "wait" });
  });

  it("fails with any error the bus gave: control characters and unpaired surrogates replaced, cut to 500 characters", async () => {
    // RunFailed refuses a NUL or an unpaired surrogate: such a run was never failed, its FailRun refused at every try.
    const waiting: TrackedRun = { ...stalled, redrives: 0, lastProgressAt: undefined, unpublished: true, startTries: 3, startRefusals: 2, startRefusedSince: 0 };
    const errors = ["broker said \u0000no\r\n\u001b[31mleader", "lone \ud800 surrogate, and a pair \ud83d\ude00 kept", `${"x".repeat(499)}\ud83d\ude00${"y".repeat(10_000)}`];
    const messages = errors.map((error) => {
      const action = refusedStartAction(waiting, STALL_MS * 2, settings, error);
      return action.kind === "fail" ? action.message.slice(action.message.indexOf("last error: ") + "last error: ".length) : "";
    });
    expect(messages.slice(0, 2)).toEqual(["broker said  no [31mleader", "lone \ufffd surrogate, and a pair \ud83d\ude00 kept"]);
    // Cut inside a pair: its half is replaced too.
    expect(messages[2]).toBe(`${"x".repeat(499)}\ufffd…`);
    const store = createMemoryEventStore();
    for (const [i, error] of errors.entries()) {
      const runId = await seedRun(store, { runId: `r${i}` });
      const action = refusedStartAction(waiting, STALL_MS * 2, settings, error);
      const message = action.kind === "fail" ? action.message : "";
      await expect(handleCommand(store, runAggregate, runStream(runId), { type: "FailRun", run_id: runId, message }, { clock: testClock, ids: testIds, context: { tenant: "acme", actor: "test" } })).resolves.toBeDefined();
    }
  });
});

describe("the watchdog's rounds and a clock running ahead", () => {
  // Another run's progress is "the workers are busy": timed in the future, it held a stalled run
  // back for the clock's error.
  /** The run's events after each of two rounds, a stall time apart. */
  async function stalledBeside(progressAt: (now: number) => { recordedAt: number; readAt: number }): Promise<string[][]> {
    let now = Date.parse("2026-11-30T12:00:00.000Z");
    const clock = { now: () => new Date(now) };
    const store = createMemoryEventStore();
    await seedRun(store);
    const runs = new Map<string, TrackedRun>([["r1", { ...stalled, lastProgressAt: now }]]);
    const redrives = new Redrives({
      store, clock, ids: testIds, log: { info: () => undefined, error: () => undefined }, watchdog: settings, runs,
      jobs: { replays: async () => undefined, completion: async () => undefined }, readPosition: () => null, accepted: () => 0,
    });
    const { recordedAt, readAt } = progressAt(now);
    const start = now;
    now = readAt;
    redrives.progressed({ ...stalled, redrives: 0 }, { metadata: { recorded_at: new Date(recordedAt).toISOString() } } as unknown as RecordedEvent);
    const rounds: string[][] = [];
    for (const round of [1, 2]) {
      now = start + round * STALL_MS;
      await redrives.sweep();
      rounds.push((await readWholeStream(store, runStream("r1"))).map((e) => e.type));
    }
    return rounds;
  }

  it("fails a run re-driven enough a stall time after progress another process recorded with its clock an hour ahead", async () => {
    expect((await stalledBeside((now) => ({ recordedAt: now + HOUR, readAt: now })))[0]).toEqual(["RunStarted", "RunFailed"]);
  });

  it("fails it a stall time after it first sees progress it read before its clock was set back an hour", async () => {
    expect(await stalledBeside((now) => ({ recordedAt: now + HOUR, readAt: now + HOUR }))).toEqual([["RunStarted"], ["RunStarted", "RunFailed"]]);
  });
});
