// Filtered reads of a finished run (results(model:, status:, fault:), fixItems(model:)) through
// real HTTP: answered from the run's full lists kept once, never one kept entry per argument
// value. Keyed by the argument's text, a loop of new 1.5 MB `fault` values grew the process by
// ~1.5 MB a request, and the run read most recently is never evicted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TerminalRunCache } from "./server/terminalRunCache.js";
import { finishedSampleRun, startPlatform, type Platform } from "./testing/harness.js";
import { nodes } from "./testing/nodes.js";

let p: Platform;
let runId: string;
const runCache = new TerminalRunCache();

async function ok<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const { status, body } = await p.gql<T>(p.keys.acmeRead, query, variables);
  if (body.errors) throw new Error(`${status}: ${JSON.stringify(body.errors)}`);
  return body.data as T;
}

beforeAll(async () => {
  p = await startPlatform({ runCache });
  ({ runId } = await finishedSampleRun(p, ["gpt-5-mini", "claude-sonnet-5", "llama3:8b"]));
}, 60_000);

afterAll(() => p?.close());

describe("a finished run's filtered reads", () => {
  it("keep a bounded number of entries however many distinct filter values are asked", async () => {
    const query = `query ($r: ID!, $f: String, $m: String) { run(id: $r) { status results(fault: $f, model: $m) { edges { node { n } } } fixItems { edges { node { fault } } } } }`;
    const first = await ok(query, { r: runId, f: "seed", m: "gpt-5-mini" });
    expect(first.run.status).toBe("COMPLETED");
    const kept = runCache.fieldCount;
    const big = "x".repeat(100_000);
    for (let i = 0; i < 40; i += 1) {
      // A new value each time, of the fault and of the model, as a loop of crafted reads sends
      // (a model not in the run is refused before anything is read).
      const data = await ok(query, { r: runId, f: `${big}${i}`, m: "gpt-5-mini" });
      expect(nodes(data.run.results)).toEqual([]);
      const refused = await p.gql(p.keys.acmeRead, query, { r: runId, f: null, m: `${i}${big}` });
      expect(refused.body.errors[0].extensions).toEqual({ code: "NOT_FOUND", field: "model" });
    }
    expect(runCache.size).toBe(1);
    expect(runCache.fieldCount).toBe(kept);
    expect(kept).toBeLessThan(10);
  });

  it("answer each filter as the database does, from the one kept list", async () => {
    const all = (await ok(`query ($r: ID!) { run(id: $r) { results { edges { node { n modelLabel status fault } } } fixItems { edges { node { fault models } } } } }`, { r: runId })).run;
    const allResults = nodes(all.results);
    const allFixItems = nodes(all.fixItems);
    expect(allResults).toHaveLength(9);
    const kept = runCache.fieldCount;
    const labels = ["gpt-5-mini", "claude-sonnet-5", "llama3:8b"];
    const faults = [...new Set(allResults.map((r: any) => r.fault).filter(Boolean)), "nope"] as string[];
    expect(faults.length).toBeGreaterThan(1);
    for (const model of [null, ...labels]) {
      for (const status of [null, "PASSED", "FAILED", "ERRORED", "PENDING"]) {
        for (const fault of [null, ...faults]) {
          const data = await ok(`query ($r: ID!, $m: String, $s: ResultStatus, $f: String) { run(id: $r) { results(model: $m, status: $s, fault: $f) { edges { node { n } } } } }`, { r: runId, m: model, s: status, f: fault });
          const expected = allResults.filter((r: any) => (model === null || r.modelLabel === model) && (status === null || r.status === status) && (fault === null || r.fault === fault));
          expect(nodes(data.run.results).map((r: any) => r.n)).toEqual(expected.map((r: any) => r.n));
        }
      }
    }
    for (const model of labels) {
      const data = await ok(`query ($r: ID!, $m: String) { run(id: $r) { fixItems(model: $m) { edges { node { fault models } } } } }`, { r: runId, m: model });
      expect(nodes(data.run.fixItems)).toEqual(allFixItems.filter((item: any) => item.models.includes(model)));
    }
    expect(runCache.fieldCount).toBe(kept);
  });

  it("refuse results(model:) with a model not in the run NOT_FOUND naming the run's models, as fixItems(model:) does", async () => {
    const query = `query ($r: ID!, $m: String) { run(id: $r) { status results(model: $m) { totalCount } fixItems(model: $m) { totalCount } } }`;
    const { body } = await p.gql(p.keys.acmeRead, query, { r: runId, m: "gpt-5" });
    // Both nullable: each answers null with its refusal, the rest of the run answers.
    expect(body.data).toEqual({ run: { status: "COMPLETED", results: null, fixItems: null } });
    const message = "model gpt-5 is not in this run (its models: gpt-5-mini, claude-sonnet-5, llama3:8b)";
    expect(body.errors.map((e: any) => [e.path.join("."), e.message, e.extensions])).toEqual(
      expect.arrayContaining([["run.results", message, { code: "NOT_FOUND", field: "model" }], ["run.fixItems", message, { code: "NOT_FOUND", field: "model" }]]),
    );
    expect(body.errors).toHaveLength(2);
  });
});
