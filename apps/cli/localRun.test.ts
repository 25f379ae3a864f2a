// `verdict run`'s Runner wiring: a replay past its budget is a run_error and its agent is told
// to stop (the HTTP agent aborts its request on that signal).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PriceTable, type AgentRuntime } from "@verdict/domain";
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

  it("leaves a replay whose estimate no event could hold (past COST_LIMIT, or Infinity) unpriced, and tells onPriceRefused", async () => {
    const runtime: AgentRuntime = { name: "x", replay: async () => ({ answer: "Order 4821 shipped yesterday, here is the tracking link for you.", input_tokens: 1e308, output_tokens: 1e308 }) as never };
    const prices = PriceTable.parse("models:\n  gpt-5-mini: { input: 1000000, output: 1000000 }\n", "prices.yaml");
    const refused: number[] = [];
    const outcome = await localRun({ catalogPath, product: "support", set: "smoke", models: ["gpt-5-mini"], runtime, judge: null, prices, onPriceRefused: (r) => void refused.push(r.estimate) });
    expect(outcome.results.length).toBeGreaterThan(0);
    for (const result of outcome.results) {
      expect(result.replay.cost).toBeNull();
      expect(result.costSource).toBe("unpriced");
    }
    expect(refused).toEqual(outcome.results.map(() => Infinity));
  });

  it("prices each replay by the chain: the table's rate by label, no_usage without a table, and a replay that does not read stays the Runner's run_error", async () => {
    const answers: Record<string, unknown> = {
      "gpt-5-mini": { answer: "Order 4821 shipped yesterday, here is the tracking link for you.", input_tokens: 2_000, output_tokens: 100 },
      "claude-sonnet-4-5": { answer: "Order 4821 shipped yesterday, here is the tracking link for you.", input_tokens: 0, output_tokens: 0 },
      "ollama/qwen3:8b": { answr: "a typo the Runner names" },
    };
    const runtime: AgentRuntime = { name: "by model", replay: async (_scenario, model) => answers[model.label] as never };
    const prices = PriceTable.parse("models:\n  gpt-5-mini: { input: 0.25, output: 2 }\n", "prices.yaml");
    const models = Object.keys(answers);
    for (const table of [prices, null]) {
      const outcome = await localRun({ catalogPath, product: "support", set: "smoke", models, runtime, judge: null, prices: table });
      for (const result of outcome.results) {
        if (result.label === "gpt-5-mini") {
          expect(result.replay.cost).toBe(table ? 0.0007 : null);
          expect(result.costSource).toBe(table ? "estimated" : "unpriced");
        } else if (result.label === "claude-sonnet-4-5") {
          expect(result.replay.cost).toBe(0);
          expect(result.costSource).toBe("no_usage");
        } else {
          expect(result.fault).toBe("run_error");
          expect(result.replay.error).toContain("answr");
          expect(result.costSource).toBe("unpriced");
        }
      }
    }
  });

  it("estimates a replay that gives no token count from the prompt of the scenario it ran and its answer (basis chars), counts kept null", async () => {
    const answer = "Order 4821 shipped.";
    const runtime: AgentRuntime = { name: "no counts", replay: async () => ({ answer }) as never };
    const prices = PriceTable.parse("models:\n  gpt-5-mini: { input: 1, output: 2 }\n", "prices.yaml");
    const outcome = await localRun({ catalogPath, product: "support", set: "smoke", models: ["gpt-5-mini"], runtime, judge: null, prices });
    expect(outcome.results.length).toBeGreaterThan(1);
    for (const result of outcome.results) {
      const promptChars = [...result.scenario.prompt].length;
      expect(result.costSource).toBe("estimated");
      expect(result.replay.inputTokens).toBeNull();
      expect(result.replay.outputTokens).toBeNull();
      expect(result.costRate).toMatchObject({ basis: "chars", lower_bound: true, prompt_chars: promptChars, input_tokens: Math.ceil(promptChars / 4), answer_chars: 19, output_tokens: 5 });
      expect(result.replay.cost).toBe(Math.ceil(promptChars / 4) * (1 / 1e6) + 5 * (2 / 1e6));
    }
    // Each scenario's own prompt, not one text for all.
    expect(new Set(outcome.results.map((r) => r.costRate?.prompt_chars)).size).toBeGreaterThan(1);
  });
});
