// `verdict run`'s Runner wiring: a replay past its budget is a run_error and its agent is told
// to stop (the HTTP agent aborts its request on that signal).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgentRuntime } from "@verdict/domain";
import { localRun } from "./localRun.js";

const catalogPath = fileURLToPath(new URL("../../examples/support/catalog.yaml", import.meta.url));

describe("localRun", () => {
  it("aborts the agent's signal when a replay runs past its budget, and records the run_error", async () => {
    const aborted: unknown[] = [];
    const hanging: AgentRuntime = {
      name: "hanging",
      replay: (_scenario, _model, { signal }) =>
        new Promise((_, reject) => signal.addEventListener("abort", () => (aborted.push(signal.reason), reject(signal.reason)))),
    };
    const outcome = await localRun({ catalogPath, product: "support", set: "smoke", models: ["gpt-5-mini"], runtime: hanging, judge: null, replayTimeoutMs: 30 });
    expect(outcome.total).toBeGreaterThan(0);
    expect(aborted).toHaveLength(outcome.total);
    expect(outcome.results.every((r) => r.fault === "run_error" && /within 30 ms/.test(r.replay.error ?? ""))).toBe(true);
  });
});
