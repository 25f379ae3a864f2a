// One missing record (or a refused page) answers null at its own path, beside the rest of the
// query: `run`, `evaluation`, `catalog`, `agent` and the lists `evaluations`, `Evaluation.runs`
// and `agents` are nullable. Non-null, one typo'd id nulled the whole `data`, and a dashboard
// asking for several things at once lost all of them.
import { beforeAll, describe, expect, it } from "vitest";
import { finishedSampleRun, startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;
let evaluationId: string;
let runId: string;

const byPath = (a: [string[], ...unknown[]], b: [string[], ...unknown[]]) => a[0].join(".").localeCompare(b[0].join("."));

beforeAll(async () => {
  p = await startPlatform();
  ({ evaluationId, runId } = await finishedSampleRun(p, ["gpt-5-mini"]));
  return () => p.close();
}, 60_000);

describe("a refused record or page among other fields", () => {
  it("a missing run, evaluation, catalog or agent answers null at its path; the other fields answer", async () => {
    const { body } = await p.gql(p.keys.acmeRead, `query ($r: ID!, $e: ID!) {
      a: run(id: $r) { number }
      c: run(id: "typo") { number }
      e: evaluation(id: $e) { name }
      f: evaluation(id: "typo") { name }
      g: catalog(key: "support_desk") { key }
      h: catalog(key: "typo") { key }
      i: agent(name: "SupportAgent") { name }
      j: agent(name: "typo") { name }
      u: usage { month }
    }`, { r: runId, e: evaluationId });
    expect(body.data).toEqual({
      a: { number: 1 }, c: null, e: { name: "support_desk/triage/smoke" }, f: null, g: { key: "support_desk" }, h: null,
      i: { name: "SupportAgent" }, j: null, u: { month: expect.any(String) },
    });
    // Errors come in the order the fields finished, not the query's: compared by path.
    expect(body.errors.map((e: any) => [e.path, e.extensions, e.message]).sort(byPath)).toEqual([
      [["c"], { code: "NOT_FOUND", field: "id" }, "run typo not found"],
      [["f"], { code: "NOT_FOUND", field: "id" }, "evaluation typo not found"],
      [["h"], { code: "NOT_FOUND", field: "key" }, "catalog typo not found"],
      [["j"], { code: "NOT_FOUND", field: "name" }, "agent typo not found"],
    ]);
  });

  it("a refused page of evaluations, of an evaluation's runs or of agents answers null at its path", async () => {
    const { body } = await p.gql(p.keys.acmeRead, `query ($e: ID!) {
      evaluation(id: $e) { name runs(first: 500) { totalCount } ok: runs { totalCount } }
      evaluations(first: 500) { totalCount }
      agents(first: 500) { totalCount }
      all: evaluations { totalCount }
    }`, { e: evaluationId });
    expect(body.data).toEqual({
      evaluation: { name: "support_desk/triage/smoke", runs: null, ok: { totalCount: 1 } }, evaluations: null, agents: null, all: { totalCount: 1 },
    });
    expect(body.errors.map((e: any) => [e.path, e.extensions.code, e.extensions.field]).sort(byPath)).toEqual([
      [["agents"], "VALIDATION", "first"],
      [["evaluation", "runs"], "VALIDATION", "first"],
      [["evaluations"], "VALIDATION", "first"],
    ]);
  });
});
