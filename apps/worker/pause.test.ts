import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { pause } from "./pause.js";

describe("pause", () => {
  it("leaves no abort listener behind once its time is up (a standby dispatcher added one every 2 s)", async () => {
    const controller = new AbortController();
    for (let i = 0; i < 12; i++) await pause(1, controller.signal);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("ends at once when the signal aborts", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = pause(60_000, controller.signal);
    controller.abort();
    await waiting;
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
