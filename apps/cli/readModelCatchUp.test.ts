import { describe, expect, it } from "vitest";
import { bufferIo } from "./io.js";
import { catchUpReadModels, type CatchingUp } from "./readModelCatchUp.js";

/** A projector whose catch-up applies `batches` of 500 events, each taking `msPerBatch` on `clock`. */
function backlog(batches: number, msPerBatch: number, clock: { t: number }): CatchingUp {
  return {
    async catchUp(onProgress) {
      for (let i = 1; i <= batches; i++) {
        clock.t += msPerBatch;
        onProgress?.(i * 500);
      }
      return batches * 500;
    },
  };
}

describe("catching the read models up before a start serves", () => {
  it("says how far a long catch-up has come, about every two seconds, and when it is done", async () => {
    const clock = { t: 0 };
    const io = bufferIo();
    const applied = await catchUpReadModels(backlog(10, 700, clock), io, { now: () => clock.t });
    expect(applied).toBe(5_000);
    expect(io.stdout).toEqual([
      "verdict: projecting the event log into the read models: 1500 events so far",
      "verdict: projecting the event log into the read models: 3000 events so far",
      "verdict: projecting the event log into the read models: 4500 events so far",
      "verdict: read models up to date (5000 events projected in 7.0 s)",
    ]);
  });

  it("says nothing when the read models are up to date or catch up quickly", async () => {
    const clock = { t: 0 };
    const io = bufferIo();
    expect(await catchUpReadModels(backlog(0, 0, clock), io, { now: () => clock.t })).toBe(0);
    expect(await catchUpReadModels(backlog(3, 100, clock), io, { now: () => clock.t })).toBe(1_500);
    expect(io.stdout).toEqual([]);
  });
});
