// Imported runs on the embedded event store, whose jsonb keeps an object's keys sorted by
// length, then bytes: the order a report's models were written in is gone from its
// summary_by_model and must come back from its results (the memory store keeps key order, so the
// shared harness would not show this); and the run's figures add up as the report's do.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgliteEventStore } from "@verdict/infra";
import { Format } from "@verdict/domain";
import { reportEnvelope } from "./report/rebuildReport.js";
import { loadRunHistory } from "./report/runEvents.js";
import { CATALOG_YAML, collect, startPlatform, type Platform } from "./testing/harness.js";
import { nodes } from "./testing/nodes.js";

let p: Platform;
let evaluationId: string;
beforeAll(async () => {
  p = await startPlatform({ store: await createPgliteEventStore() });
  const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "SupportAgent", name: "Imports", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
  evaluationId = created.body.data.createEvaluation.evaluationId;
}, 60_000);
afterAll(async () => {
  await p?.close();
});

it("keeps an imported report's model order, which its events' jsonb does not keep for object keys", async () => {
  const labels = ["gpt-5-mini", "claude-sonnet-5", "llama3:8b"];
  const models = Object.fromEntries(labels.map((label) => [label, { provider: label === "gpt-5-mini" ? "openai" : "ollama", model: label }]));
  const results = ["a", "b"].flatMap((key) => labels.map((label) => ({ scenario_key: key, label, status: "passed", score: 1, prompt: `Question ${key}` })));
  const interval = [1, 1];
  const comparison = { models: Object.fromEntries(labels.map((label) => [label, { scenarios: 2, pass_rate: 1, interval }])), pairs: [], conclusion: "None is decisive.", seed: 0, resamples: 5000, confidence: 0.95 };
  const envelope = { version: 1, run_id: "ordered-1", source: "ci", agent_name: "SupportAgent", suite: "support", report: { models, results, comparison } };
  const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: evaluationId, e: envelope });
  const runId = imported.body.data.importReport.runId;
  const run = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { models { label } matrix { edges { node { cells { modelLabel } } } } comparison } }`, { r: runId });
  expect(run.body.data.run.models.map((m: any) => m.label)).toEqual(labels);
  expect(Object.keys(run.body.data.run.comparison.models)).toEqual(labels);
  expect(nodes(run.body.data.run.matrix)[0].cells.map((c: any) => c.modelLabel)).toEqual(labels);
  const markdown = await (await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${runId}/report.md`)).text();
  expect(markdown).toContain("| Scenario | `gpt-5-mini` | `claude-sonnet-5` | `llama3:8b` | Cost |");
});


it("counts the imported report's own judge calls (the verdict's) in the run's judge usage, as its report does", async () => {
  const judgeUsage = { calls: 1, input_tokens: 100, output_tokens: 10, cost: 0.001 };
  // As a report is written: the metadata's judge_usage, which the report reads, and its copy beside it.
  const results = ["a", "b", "c"].map((key) => ({ scenario_key: key, label: "gpt-5-mini", status: "passed", score: 1, cost: 0.01, judge_usage: judgeUsage, metadata: { judge_usage: judgeUsage } }));
  const report = { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results, run_judge_usage: { calls: 1, input_tokens: 420, output_tokens: 18, cost: 0.00011 } };
  const envelope = { version: 1, run_id: "judged-1", source: "ci", agent_name: "SupportAgent", suite: "support", report };
  const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: evaluationId, e: envelope });
  const runId = imported.body.data.importReport.runId;
  const run = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { usage { agent { cost } judge { calls inputTokens outputTokens cost } totalCost } } }`, { r: runId });
  expect(run.body.data.run.usage).toEqual({
    agent: { cost: 0.03 },
    judge: { calls: 4, inputTokens: 720, outputTokens: 48, cost: 0.00311 },
    totalCost: 0.03311,
  });
  // A null run_judge_usage falls back to judge_usage.run, as Report.fromJSON reads it.
  const fallback = { ...envelope, run_id: "judged-3", report: { ...report, run_judge_usage: null, judge_usage: { calls: 4, run: { calls: 1, cost: 0.00011 } } } };
  const second = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: evaluationId, e: fallback });
  const usage = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { usage { judge { calls cost } } } }`, { r: second.body.data.importReport.runId });
  expect(usage.body.data.run.usage.judge).toEqual({ calls: 4, cost: 0.00311 });
  // A result's top-level judge_usage alone is a copy the report never reads: counted nowhere, as the report counts it.
  const topLevelOnly = { ...envelope, run_id: "judged-4", report: { ...report, results: results.map(({ metadata: _metadata, ...result }) => result) } };
  const third = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: evaluationId, e: topLevelOnly });
  const topLevel = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { usage { judge { calls cost } } report { verdictMarkdown } } }`, { r: third.body.data.importReport.runId });
  expect(topLevel.body.data.run.usage.judge).toEqual({ calls: 1, cost: 0.00011 });
  expect(topLevel.body.data.run.report.verdictMarkdown).toContain("**Total: $0.0301** (agent $0.0300 · judge $0.000110)");
  const bad = { ...envelope, run_id: "judged-2", report: { ...report, run_judge_usage: { calls: 1.5 } } };
  const refused = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: evaluationId, e: bad });
  expect(refused.body.errors[0].extensions).toMatchObject({ code: "VALIDATION", field: "envelope.report.run_judge_usage.calls" });
});

it("refuses a judge_usage its results and run-level part do not give, and a release startRun would refuse, naming the field and storing nothing", async () => {
  const mutation = `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`;
  const usage = { calls: 1, input_tokens: 100, output_tokens: 10, cost: 0.001, by_kind: { score: 1 } };
  const results = ["a", "b"].map((key) => ({ scenario_key: key, label: "gpt-5-mini", status: "passed", score: 1, cost: 0.01, judge_usage: usage, metadata: { judge_usage: usage } }));
  const runJudgeUsage = { calls: 1, input_tokens: 420, output_tokens: 18, cost: 0.00011, by_kind: { verdict: 1 } };
  const judgeUsage = { calls: 3, input_tokens: 620, output_tokens: 38, cost: 0.00211, by_kind: { score: 2, verdict: 1 }, estimated: false, run: { calls: 1, cost: 0.00011, by_kind: { verdict: 1 } } };
  const report = { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results, run_judge_usage: runJudgeUsage, judge_usage: judgeUsage };
  const envelope = (runId: string, change: Record<string, unknown>) => ({ version: 1, run_id: runId, source: "ci", agent_name: "SupportAgent", suite: "support", report: { ...report, ...change } });
  const runCount = async () => (await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { runCount } }`, { id: evaluationId })).body.data.evaluation.runCount;
  const before = await runCount();
  const billed = await p.gql(p.keys.acmeWrite, mutation, { id: evaluationId, e: envelope("judge-bill-99", { judge_usage: { ...judgeUsage, cost: 99 } }) });
  expect(billed.body.errors[0]).toMatchObject({
    message: "report.judge_usage.cost is 99, but the report's results and run-level judge usage give 0.00211: the run's judge usage must follow from them (reference-core §13.2)",
    extensions: { code: "VALIDATION", field: "envelope.report.judge_usage.cost" },
  });
  const run = await p.gql(p.keys.acmeWrite, mutation, { id: evaluationId, e: envelope("judge-run-part", { judge_usage: { ...judgeUsage, run: { ...judgeUsage.run, calls: 2 } } }) });
  expect(run.body.errors[0].extensions).toMatchObject({ code: "VALIDATION", field: "envelope.report.judge_usage.run.calls" });
  const typo = await p.gql(p.keys.acmeWrite, mutation, { id: evaluationId, e: envelope("release-typo", { release: { digest: "bbbbbbbbbb11", labl: "1.1" } }) });
  expect(typo.body.errors[0]).toMatchObject({
    message: "envelope.report.release.labl: unknown key; a release takes digest, revision and label (did you mean label?)",
    extensions: { code: "VALIDATION", field: "envelope.report.release.labl" },
  });
  const long = await p.gql(p.keys.acmeWrite, mutation, { id: evaluationId, e: envelope("release-long", { release: { digest: "bbbbbbbbbb11", label: "x".repeat(201) } }) });
  expect(long.body.errors[0].extensions).toMatchObject({ code: "VALIDATION", field: "envelope.report.release.label" });
  expect(await runCount()).toBe(before);
  // The honest report imports, and GraphQL's usage is the judge_usage its report.json serves.
  const honest = await p.gql(p.keys.acmeWrite, mutation, { id: evaluationId, e: envelope("judge-honest", { release: { digest: "", label: "1.1" } }) });
  const runId = honest.body.data.importReport.runId;
  const read = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { release { digest } usage { judge { calls inputTokens outputTokens cost } } } }`, { r: runId });
  expect(read.body.data.run).toEqual({ release: null, usage: { judge: { calls: 3, inputTokens: 620, outputTokens: 38, cost: 0.00211 } } });
});

it("counts judge usage a result carries only in its metadata (as Report.fromJSON reads it), so the run's usage agrees with its report", async () => {
  const metadata = { judge_usage: { calls: 2, input_tokens: 200, output_tokens: 20, cost: 0.002 } };
  const results = ["a", "b"].map((key) => ({ scenario_key: key, label: "gpt-5-mini", status: "passed", score: 1, cost: 0.01, metadata }));
  const report = { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results };
  const envelope = { version: 1, run_id: "metadata-judged-1", source: "ci", agent_name: "SupportAgent", suite: "support", report };
  const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: evaluationId, e: envelope });
  const runId = imported.body.data.importReport.runId;
  const run = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { usage { judge { calls inputTokens outputTokens cost } } report { verdictMarkdown } } }`, { r: runId });
  expect(run.body.data.run.usage.judge).toEqual({ calls: 4, inputTokens: 400, outputTokens: 40, cost: 0.004 });
  // The report rebuilt from the document (its JSON is the document as imported, which has no judge_usage of its own).
  expect(run.body.data.run.report.verdictMarkdown).toContain("| $0.0040 (4 calls) |");
  expect(run.body.data.run.report.verdictMarkdown).toContain("**Total: $0.0240** (agent $0.0200 · judge $0.0040)");
});

it("takes a host run_id that is not a stream id (\"/\", \".\", \":\"), gives it back in report.json, and answers its re-import as a duplicate", async () => {
  const mutation = `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId hostRunId number duplicate } }`;
  const report = (threshold: number) => ({ threshold, models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results: [{ scenario_key: "a", label: "gpt-5-mini", status: "passed", score: 1 }] });
  for (const hostRunId of ["gh/1234/1", "nightly-2025.06.01", "dashboard-run-7-2025-06-01T10:00:00.000Z"]) {
    const envelope = { version: 1, run_id: hostRunId, source: "ci", agent_name: "SupportAgent", suite: "support", report: report(0.7) };
    const first = await p.gql(p.keys.acmeWrite, mutation, { id: evaluationId, e: envelope });
    expect(first.body.errors).toBeUndefined();
    const imported = first.body.data.importReport;
    expect(imported).toMatchObject({ runId: expect.stringMatching(/^imp-[0-9a-f]{32}$/), hostRunId, duplicate: false });
    const run = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { id origin status requireJudgeScores } }`, { r: imported.runId });
    // Its report does not say whether it required judge grades: null, not the engine runs' false.
    expect(run.body.data.run).toEqual({ id: imported.runId, origin: "IMPORTED", status: "COMPLETED", requireJudgeScores: null });
    const response = await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${imported.runId}/report.json`);
    expect(response.status).toBe(200);
    const body = await response.text();
    const exported = JSON.parse(body);
    expect(exported.run_id).toBe(hostRunId);
    // Read back by the host's own handle (reference-platform §6.3), and by the run's id here: the same document.
    for (const handle of [hostRunId, imported.runId]) {
      const readBack = await p.get(p.keys.acmeRead, `/api/evaluation_reports/${encodeURIComponent(handle)}`);
      expect(readBack.status).toBe(200);
      expect(await readBack.text()).toBe(body);
    }
    // Another tenant's handle answers exactly as one no tenant has.
    const foreign = await p.get(p.keys.globexWrite, `/api/evaluation_reports/${encodeURIComponent(hostRunId)}`);
    const missing = await p.get(p.keys.globexWrite, `/api/evaluation_reports/${encodeURIComponent(`${hostRunId}-none`)}`);
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect((await foreign.text()).replace(`${hostRunId}`, "X")).toBe((await missing.text()).replace(`${hostRunId}-none`, "X"));
    const again = await p.gql(p.keys.acmeWrite, mutation, { id: evaluationId, e: exported });
    expect(again.body.data.importReport).toEqual({ ...imported, duplicate: true });
    const different = await p.gql(p.keys.acmeWrite, mutation, { id: evaluationId, e: { ...exported, report: report(0.5) } });
    expect(different.body.errors[0]).toMatchObject({ message: "run_id already exists with a different report", extensions: { code: "CONFLICT", field: "envelope.run_id" } });
  }
});

it("names a report rule's field under envelope, as the envelope's own checks do", async () => {
  const models = { a: { provider: "openai", model: "gpt-5-mini" }, b: { provider: "openai", model: "gpt-5-mini" } };
  const envelope = { version: 1, run_id: "same-model-twice", source: "ci", agent_name: "SupportAgent", suite: "support", report: { models, results: [] } };
  const refused = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: evaluationId, e: envelope });
  // It said report.models, where a bad failure said envelope.report.failure.
  expect(refused.body.errors[0]).toMatchObject({ message: expect.stringContaining("name the same provider/model"), extensions: { code: "VALIDATION", field: "envelope.report.models" } });
});

it("refuses a blank, over-long or control-character run_id with VALIDATION on envelope.run_id, writing nothing", async () => {
  const mutation = `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`;
  const report = { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results: [{ scenario_key: "a", label: "gpt-5-mini", status: "passed" }] };
  const cases: Array<[string, string]> = [
    ["  ", "envelope.run_id: must be 1-255 characters, not blank (got 2 blank)"],
    ["r".repeat(256), "envelope.run_id: must be 1-255 characters, not blank (got 256)"],
    ["nightly\t42", "envelope.run_id: must not contain control characters (U+0009 at index 7)"],
  ];
  const runCount = async () => (await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { runCount } }`, { id: evaluationId })).body.data.evaluation.runCount;
  const before = await runCount();
  for (const [runId, message] of cases) {
    const refused = await p.gql(p.keys.acmeWrite, mutation, { id: evaluationId, e: { version: 1, run_id: runId, source: "ci", agent_name: "SupportAgent", suite: "support", report } });
    expect(refused.body.errors[0]).toMatchObject({ message, extensions: { code: "VALIDATION", field: "envelope.run_id" } });
  }
  expect(await runCount()).toBe(before);
});

describe("an exported run imported back", () => {
  const labels = ["gpt-5-mini", "claude-sonnet-5", "llama3:8b"];
  let engineEvaluation: string;
  let engineRun: string;
  let importedRun: string;
  const reportPath = (runId: string, ext = "") => `/api/evaluations/${engineEvaluation}/runs/${runId}/report${ext}`;

  beforeAll(async () => {
    await p.gql(p.keys.acmeWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`, { yaml: CATALOG_YAML });
    const created = await p.gql(p.keys.acmeWrite, `mutation ($m: [String!]) { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", compareModels: $m }) { evaluationId } }`, { m: labels });
    engineEvaluation = created.body.data.createEvaluation.evaluationId;
    const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id) { runId } }`, { id: engineEvaluation });
    engineRun = started.body.data.startRun.runId;
    await collect(p.wsClient(p.keys.acmeRead), `subscription ($r: ID!) { runProgress(runId: $r) { status } }`, { r: engineRun });
    const envelope = (await (await p.get(p.keys.acmeRead, reportPath(engineRun, ".json"))).json()) as any;
    const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: engineEvaluation, e: { ...envelope, run_id: "exported-1" } });
    importedRun = imported.body.data.importReport.runId;
  }, 60_000);

  it("answers the envelope's run_id as the run's hostRunId, by id and in the evaluation's runs; a run started here answers null", async () => {
    const envelope = (await (await p.get(p.keys.acmeRead, reportPath(engineRun, ".json"))).json()) as any;
    const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: engineEvaluation, e: { ...envelope, run_id: "nightly-42" } });
    const nightly = imported.body.data.importReport.runId;
    expect(nightly).not.toBe("nightly-42");
    const byId = async (r: string) => (await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { id hostRunId } }`, { r })).body.data.run;
    expect(await byId(nightly)).toEqual({ id: nightly, hostRunId: "nightly-42" });
    expect(await byId(importedRun)).toEqual({ id: importedRun, hostRunId: "exported-1" });
    expect(await byId(engineRun)).toEqual({ id: engineRun, hostRunId: null });
    const listed = await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { runs { edges { node { id hostRunId } } } } }`, { id: engineEvaluation });
    const hostRunIds = new Map(nodes(listed.body.data.evaluation.runs).map((run: any) => [run.id, run.hostRunId]));
    expect(hostRunIds.get(nightly)).toBe("nightly-42");
    expect(hostRunIds.get(importedRun)).toBe("exported-1");
    expect(hostRunIds.get(engineRun)).toBeNull();
    // The handle a client maps it back with is the one REST reads the run by.
    const byHandle = await p.get(p.keys.acmeRead, `/api/evaluation_reports/nightly-42`);
    expect(await byHandle.text()).toBe(await (await p.get(p.keys.acmeRead, reportPath(nightly, ".json"))).text());
  });

  it("serves its document as the original's bytes over REST, GraphQL and the CLI's function, not in jsonb's key order", async () => {
    const original = JSON.stringify(((await (await p.get(p.keys.acmeRead, reportPath(engineRun, ".json"))).json()) as any).report);
    // jsonb sorts keys by length: the criteria (and every result's scores) start with `latency`.
    expect(Object.keys(JSON.parse(original).criteria).slice(0, 2)).toEqual(["response_present", "response_length"]);
    const rest = ((await (await p.get(p.keys.acmeRead, reportPath(importedRun, ".json"))).json()) as any).report;
    expect(JSON.stringify(rest)).toBe(original);
    const graphql = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { report { json } } }`, { r: importedRun });
    expect(JSON.stringify(graphql.body.data.run.report.json)).toBe(original);
    // `verdict report --format json` writes this envelope.
    const cli = reportEnvelope(await loadRunHistory(p.store, "acme", importedRun), "Imports", "SupportAgent");
    expect(JSON.stringify(cli.report)).toBe(original);
    // The page's footer lists the criteria in the original's order too.
    const footer = (html: string) => html.slice(html.indexOf("<footer>"), html.indexOf("</footer>"));
    const [engineHtml, importedHtml] = await Promise.all([engineRun, importedRun].map(async (r) => (await p.get(p.keys.acmeRead, reportPath(r))).text()));
    expect(footer(importedHtml)).toContain("criteria response present · response length · latency");
    expect(footer(importedHtml)).toBe(footer(engineHtml));
  });

  it("has an audit with the report's grades and verdict, its comparison's models in the run's order", async () => {
    const query = `query ($r: ID!) { runAudit(id: $r) { grades { scenarioKey modelLabel status score scores fault } verdict { verdict judgeLabel comparison } } run(id: $r) { verdict { winner rationale judge } results { edges { node { scenarioKey modelLabel status score fault } } } } }`;
    const imported = (await p.gql(p.keys.acmeRead, query, { r: importedRun })).body.data;
    expect(imported.runAudit.grades).toHaveLength(9);
    expect(imported.runAudit.grades.map(({ scores: _scores, ...grade }: any) => grade)).toEqual(nodes(imported.run.results));
    expect(imported.runAudit.grades[0].scores).toMatchObject({ response_present: 1 });
    expect(imported.runAudit.verdict.verdict).toEqual(imported.run.verdict);
    expect(imported.runAudit.verdict.verdict.winner).toEqual(expect.any(String));
    expect(Object.keys(imported.runAudit.verdict.comparison.comparison.models)).toEqual(labels);
    const engine = (await p.gql(p.keys.acmeRead, query, { r: engineRun })).body.data;
    expect(Object.keys(engine.runAudit.verdict.comparison.comparison.models)).toEqual(labels);
    expect(imported.runAudit.verdict.comparison.comparison).toEqual(engine.runAudit.verdict.comparison.comparison);
  });
  it("gives its grades the fix its report records (pass, summary, evidence, recommendation, diagnosis), as the engine run it was exported from has them", async () => {
    const query = `query ($r: ID!) { runAudit(id: $r) { grades { scenarioKey modelLabel pass fault summary evidence recommendation diagnosis } } }`;
    const [engine, imported] = await Promise.all([engineRun, importedRun].map(async (r) => (await p.gql(p.keys.acmeRead, query, { r })).body.data.runAudit.grades));
    expect(imported).toEqual(engine);
    const failing = imported.filter((g: any) => !g.pass);
    expect(failing.length).toBeGreaterThan(0);
    for (const grade of failing) {
      expect(grade.summary).toEqual(expect.any(String));
      expect(grade.recommendation).toEqual(expect.any(String));
      expect(grade.diagnosis).toMatchObject({ fault: grade.fault, summary: grade.summary, evidence: grade.evidence });
    }
  });
  it("refuses a summary_by_model its results do not give, naming the figure and both values, and stores nothing", async () => {
    const envelope = (await (await p.get(p.keys.acmeRead, reportPath(engineRun, ".json"))).json()) as any;
    const label = labels[0];
    const given = envelope.report.summary_by_model[label];
    envelope.report.summary_by_model[label] = { ...given, pass_rate: 55.55 };
    const mutation = `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`;
    const before = (await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { runs { edges { node { id } } } } }`, { id: engineEvaluation })).body.data;
    const refused = await p.gql(p.keys.acmeWrite, mutation, { id: engineEvaluation, e: { ...envelope, run_id: "summary-lie" } });
    expect(refused.body.errors[0].extensions).toMatchObject({ code: "VALIDATION", field: `envelope.report.summary_by_model.${label}.pass_rate` });
    expect(refused.body.errors[0].message).toContain(`is 55.55, but the report's results give ${given.pass_rate}`);
    // A cost is checked as a pass rate is.
    envelope.report.summary_by_model[label] = { ...given, cost: 99 };
    const cost = await p.gql(p.keys.acmeWrite, mutation, { id: engineEvaluation, e: { ...envelope, run_id: "summary-lie" } });
    expect(cost.body.errors[0].message).toContain(`summary_by_model.${label}.cost is 99, but the report's results give ${JSON.stringify(given.cost)}`);
    const after = (await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { runs { edges { node { id } } } } }`, { id: engineEvaluation })).body.data;
    expect(after).toEqual(before);
  });
  it("gives the verdict's ranking best first and each model's summary in the report's key order, engine and imported runs alike", async () => {
    const envelope = (await (await p.get(p.keys.acmeRead, reportPath(engineRun, ".json"))).json()) as any;
    const summaries = envelope.report.summary_by_model;
    // Pass rate, then mean score (no two of these models tie on both).
    const best = Object.keys(summaries).sort((a, b) => summaries[b].pass_rate - summaries[a].pass_rate || summaries[b].avg_score - summaries[a].avg_score);
    const query = `query ($r: ID!) { run(id: $r) { models { label summary { summary } } verdict { ranking } } runAudit(id: $r) { verdict { ranking } } }`;
    for (const r of [engineRun, importedRun]) {
      const data = (await p.gql(p.keys.acmeRead, query, { r })).body.data;
      for (const ranking of [data.run.verdict.ranking, data.runAudit.verdict.ranking]) {
        expect(Object.keys(ranking)).toEqual(best);
        for (const label of best) expect(Object.keys(ranking[label])).toEqual(Object.keys(summaries[label]));
      }
      // The model summaries (an imported run's too) in the report's key order, not jsonb's.
      for (const model of data.run.models) expect(Object.keys(model.summary.summary)).toEqual(Object.keys(summaries[model.label]));
    }
  });
  it("shows the fix items and ranking its results give, not a tampered envelope's, as its report.md does; an honest one's as the engine run's", async () => {
    const envelope = (await (await p.get(p.keys.acmeRead, reportPath(engineRun, ".json"))).json()) as any;
    const label = labels[0];
    const mine = envelope.report.results.filter((r: any) => r.label === label);
    const passed = mine.filter((r: any) => r.status === "passed").length;
    expect(passed).toBeLessThan(mine.length);
    envelope.report.fix_items = [];
    const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: engineEvaluation, e: { ...envelope, run_id: "exported-lie" } });
    const lie = imported.body.data.importReport.runId;
    const query = `query ($r: ID!) { run(id: $r) { models { label summary { passRate avgScore summary } } fixItems { edges { node { kind fault models item } } } verdict { winner } }
      runAudit(id: $r) { verdict { ranking judgeLabel } } }`;
    const [engine, honest, tampered] = await Promise.all([engineRun, importedRun, lie].map(async (r) => (await p.gql(p.keys.acmeRead, query, { r })).body.data));
    const summary = tampered.run.models.find((m: any) => m.label === label).summary;
    expect(summary).toMatchObject({ passRate: Math.round((passed * 1000) / mine.length) / 10, summary: { passed, scenarios: mine.length } });
    const markdown = await (await p.get(p.keys.acmeRead, reportPath(lie, ".md"))).text();
    expect(markdown).toContain(Format.passes(summary.summary.passed, summary.summary.scenarios, { markdown: true }));
    // The same results as the engine run's and the honest import's: the same figures.
    expect(tampered.run.models).toEqual(engine.run.models);
    expect(honest.run.models).toEqual(engine.run.models);
    expect(nodes(tampered.run.fixItems)).toEqual(nodes(engine.run.fixItems));
    expect(nodes(honest.run.fixItems)).toEqual(nodes(engine.run.fixItems));
    expect(tampered.runAudit.verdict.ranking).toEqual(engine.runAudit.verdict.ranking);
    // The verdict and the judge's label are the report's.
    expect(tampered.run.verdict).toEqual(engine.run.verdict);
    expect(tampered.runAudit.verdict.judgeLabel).toEqual(engine.runAudit.verdict.judgeLabel);
  });
});
