// A completed run's JSON fields keep the order its report gives them: each model's summary
// (its keys, its faults) and each result's scores (the criteria in order). Read from jsonb they
// came in its key order (by length), while a run still going answers them from its report: the
// order changed at completion.
import { Buffer } from "node:buffer";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { finishedSampleRun, startPlatform, type Platform } from "./testing/harness.js";
import { nodes } from "./testing/nodes.js";

let p: Platform;
let evaluationId: string;
let runId: string;

/** `value` with its keys as jsonb keeps them: by UTF-8 length, then bytes. */
function inJsonbOrder(value: object): object {
  const byJsonb = ([a]: [string, unknown], [b]: [string, unknown]) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b));
  return Object.fromEntries(Object.entries(value).sort(byJsonb));
}

beforeAll(async () => {
  p = await startPlatform();
  ({ evaluationId, runId } = await finishedSampleRun(p, ["gpt-5-mini", "claude-sonnet-5"]));
  return () => p.close();
}, 60_000);


describe("a completed run's JSON fields", () => {
  it("models' summaries and results' scores come in the report's order", async () => {
    // Read from the SQL event stores, a ResultScored's scores come in jsonb's key order; the
    // memory store here keeps them as written, so its pages are given in jsonb's order, as
    // PostgreSQL's would be (runAudit reads them; the read models are jsonb already).
    const readAll = p.store.readAll.bind(p.store);
    vi.spyOn(p.store, "readAll").mockImplementation(async (options) =>
      (await readAll(options)).map((event) => (event.type === "ResultScored" ? { ...event, data: { ...event.data, scores: inJsonbOrder(event.data.scores as object) } } : event)),
    );
    const res = await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${runId}/report.json`);
    const { report } = (await res.json()) as { report: any };
    const { body } = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { status models { label summary { summary } } results { edges { node { scenarioKey modelLabel scores } } } } }`, { r: runId });
    const run = body.data.run;
    expect(run.status).toBe("COMPLETED");
    const faulted = run.models.find((m: any) => Object.keys(m.summary.summary.faults).length > 1);
    expect(faulted, "a model with two faults").toBeDefined();
    for (const model of run.models) {
      // Compared as text: the same keys in the same order.
      expect(JSON.stringify(model.summary.summary), model.label).toBe(JSON.stringify(report.summary_by_model[model.label]));
    }
    const results = nodes(run.results);
    expect(results).toHaveLength(report.results.length);
    results.forEach((result: any, i: number) => {
      expect(JSON.stringify(result.scores), `${result.scenarioKey} ${result.modelLabel}`).toBe(JSON.stringify(report.results[i].scores));
    });
    // runAudit's grades too: one per scored pair, in run order.
    const audit = await p.gql(p.keys.acmeRead, `query ($r: ID!) { runAudit(id: $r) { grades { scenarioKey modelLabel scores } } }`, { r: runId });
    const grades = audit.body.data.runAudit.grades;
    expect(grades).toHaveLength(report.results.length);
    grades.forEach((grade: any, i: number) => {
      expect(JSON.stringify(grade.scores), `${grade.scenarioKey} ${grade.modelLabel}`).toBe(JSON.stringify(report.results[i].scores));
    });
  });
});
