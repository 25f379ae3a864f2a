// `verdict run`'s Runner wiring: a replay past its budget is a run_error and its agent is told
// to stop (the HTTP agent aborts its request on that signal).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

  it("says whether a set has no scenarios at all or only production_only ones (both advised --include-production-only)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-local-"));
    try {
      const path = join(dir, "noscen.yaml");
      await writeFile(path, "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n      - key: prod\n        scenarios:\n          - {key: a, prompt: hi, production_only: true}\n");
      const runtime: AgentRuntime = { name: "unused", replay: () => Promise.reject(new Error("not called")) };
      const run = (set: string) => localRun({ catalogPath: path, product: "p", set, models: ["gpt-5-mini"], runtime, judge: null });
      await expect(run("s")).rejects.toThrow("set p/s has no scenarios to run (the catalog gives it none: add them under the set's scenarios:)");
      await expect(run("prod")).rejects.toThrow("set p/prod has no scenarios to run (all are production_only; pass --include-production-only)");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
