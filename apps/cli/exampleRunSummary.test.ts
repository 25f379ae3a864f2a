// `verdict start`'s summary of a run whose every pair is a run_error (e.g. `--models foo`, a label
// the example's scripted agent has no reply for) named no cause: it was only in the saved report.
// It now says the first, as `verdict run` does; the help says which labels that agent answers.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { printRunSummary } from "./exampleRun.js";
import type { GqlClient } from "./gqlClient.js";
import { bufferIo } from "./io.js";
import { COMMAND_USAGE } from "./usage.js";

const cause = 'The run failed before foo answered: scripted agent has no reply for scenario "order_status" on foo';

function answering(data: unknown): GqlClient {
  return { request: async () => data } as unknown as GqlClient;
}

const allRunErrors = {
  run: {
    status: "COMPLETED", errorMessage: null, progress: { total: 10 }, verdict: null,
    runErrors: { totalCount: 10, edges: [{ node: { diagnosis: { summary: cause } } }] },
    models: [{ label: "foo", summary: { passRate: 0, avgScore: 0 } }],
  },
};

describe("start's run summary", () => {
  it("says the first cause when every pair is a run_error, as verdict run does", async () => {
    const io = bufferIo();
    expect(await printRunSummary(answering(allRunErrors), io, "r1")).toBe(false);
    expect(io.stdout).toContain(`run failed: every pair (10/10) is a run_error, nothing was scored; the first: ${cause}`);
  });

  it("asks the API for the first run_error's diagnosis", async () => {
    const asked: string[] = [];
    const client = { request: async (query: string) => (asked.push(query), allRunErrors) } as unknown as GqlClient;
    await printRunSummary(client, bufferIo(), "r1");
    expect(asked[0]).toMatch(/results\(fault: "run_error", first: 1\) \{ totalCount edges \{ node \{ diagnosis \} \} \}/);
  });
});

describe("start --models in the help", () => {
  it("names every label the example's scripted agent answers, and only those", async () => {
    const script = await readFile(new URL("../../examples/support/agent.yaml", import.meta.url), "utf8");
    const labels = new Set([...script.matchAll(/^\s+models: \[(.+)\]$/gm)].flatMap((m) => m[1].split(",").map((label) => label.trim())));
    expect([...labels].sort()).toEqual(["claude-sonnet-4-5", "gpt-5-mini", "ollama/qwen3:8b"]);
    const help = COMMAND_USAGE.start.replace(/\s+/g, " ");
    expect(help).toContain("answers only its own labels, so --models chooses among gpt-5-mini, claude-sonnet-4-5 and ollama/qwen3:8b");
  });
});
