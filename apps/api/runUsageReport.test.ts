// A run's GraphQL usage says what its report.json says: the agent's counts as the report's
// summaries count them, and the judge's calls, cost, model and calls by kind as the report's
// judge_usage adds them up, by the report's one rule for where a result's judge usage comes from
// (its replay's own metadata.judge_usage when the replay carries one, an agent's or a host's
// record, else what the platform's judge metered), with `source` METER, REPORTED or MIXED. For
// engine runs through the real worker, an external run whose host reports its judge's usage, and
// imported reports whose judge usage is unusual.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PriceTable, Report, type ReportDocument } from "@verdict/domain";
import { ScriptedJudge } from "@verdict/infra/judges";
import { CATALOG_YAML, startPlatform, type Platform } from "./testing/harness.js";

const HOST_JUDGE = { calls: 5, input_tokens: 50, output_tokens: 5, cost: 0.5, model: "host-judge", by_kind: { score: 5 } };
const AGENT = `
agent: SupportAgent
default: { answer: "I can help with that. Here is what I found for you today." }
replies:
  - { prompt: "/./", models: [m-chars], answer: "Order 4821 ships Friday 🚚 — tracking sent." }
  - { prompt: "/./", models: [m-half], answer: "Half counted answer here.", input_tokens: 100 }
  - { prompt: "/./", models: [m-err], error: "upstream exploded" }
  - { prompt: "/./", models: [m-hostjudge], answer: "Host judged this one.", input_tokens: 10, output_tokens: 10, metadata: { judge_usage: ${JSON.stringify(HOST_JUDGE)} } }
`;
const JUDGE = `
judge: usage-judge
answers:
  - kind: score
    answer: '{"score": 0.9}'
    usage: { input_tokens: 400, output_tokens: 12, cost: 0.0006, model: judge-model-1 }
  - kind: recommend
    answer: '{"recommendation": "Call lookup_order before answering."}'
    usage: { input_tokens: 300, output_tokens: 30, cost: 0.0003, model: judge-model-1 }
  - kind: verdict
    answer: { winner: m-chars, rationale: "ok" }
    usage: { input_tokens: 900, output_tokens: 40, cost: 0.002, model: judge-model-1 }
`;
const rate = { input: 3, output: 15 };
const PRICES = PriceTable.from({ models: { "m-chars": rate, "m-half": rate, "m-err": rate, "m-hostjudge": rate } }, "prices.yaml");

const FIGURES = `query ($r: ID!) { run(id: $r) { status usage {
  agent { cost priced unpriced reported estimated replays }
  judge { calls inputTokens outputTokens cost source model byKind { kind calls } run { calls cost byKind { kind calls } } } } } }`;

interface JudgeFigures {
  calls: number; inputTokens: number; outputTokens: number; cost: number | null; source: string | null; model: string | null;
  byKind: Array<{ kind: string; calls: number }>; run: { calls: number; cost: number | null; byKind: Array<{ kind: string; calls: number }> } | null;
}
interface ReportJudge { calls: number; input_tokens: number; output_tokens: number; cost?: number; model?: string; by_kind: Record<string, number>; run?: { calls: number; cost: number | null; by_kind: Record<string, number> } }

let p: Platform;
let evaluationId: string;
beforeAll(async () => {
  p = await startPlatform({ agentScript: AGENT, prices: PRICES, judge: ScriptedJudge.fromYaml(JUDGE), limits: { bodyLimit: "8mb" } });
  await p.gql(p.keys.acmeWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`, { yaml: CATALOG_YAML });
  const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", name: "usage vs report", judgeKind: LLM, judgeModel: "usage-judge" }) { evaluationId } }`);
  expect(created.body.errors).toBeUndefined();
  evaluationId = created.body.data.createEvaluation.evaluationId;
}, 60_000);
afterAll(async () => {
  await p?.close();
});

async function completed(runId: string): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    const status = (await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { status } }`, { r: runId })).body.data.run.status;
    if (status === "COMPLETED") return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`run ${runId} did not complete`);
}

async function engineRun(models: string[]): Promise<string> {
  const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $m: [String!]) { startRun(evaluationId: $id, selection: { models: $m }) { runId } }`, { id: evaluationId, m: models });
  expect(started.body.errors).toBeUndefined();
  const runId: string = started.body.data.startRun.runId;
  await completed(runId);
  return runId;
}

/** The run's GraphQL usage and its report.json's report. */
async function both(evaluation: string, runId: string) {
  const figures = await p.gql(p.keys.acmeRead, FIGURES, { r: runId });
  expect(figures.body.errors).toBeUndefined();
  const report = ((await (await p.get(p.keys.acmeRead, `/api/evaluations/${evaluation}/runs/${runId}/report.json`)).json()) as { report: Record<string, any> }).report;
  return { usage: figures.body.data.run.usage as { agent: Record<string, number>; judge: JudgeFigures }, report };
}

const tally = (kinds: Array<{ kind: string; calls: number }>) => Object.fromEntries(kinds.map((k) => [k.kind, k.calls]));

/** usage.judge as the report's judge_usage writes it. */
function asReport(judge: JudgeFigures): Partial<ReportJudge> {
  return {
    calls: judge.calls, input_tokens: judge.inputTokens, output_tokens: judge.outputTokens, ...(judge.cost !== null ? { cost: judge.cost } : {}),
    ...(judge.model !== null ? { model: judge.model } : {}), by_kind: tally(judge.byKind),
    ...(judge.run ? { run: { calls: judge.run.calls, cost: judge.run.cost, by_kind: tally(judge.run.byKind) } } : {}),
  };
}

/** The report's judge_usage without what GraphQL does not say (estimated). */
function reportJudge(judgeUsage: (ReportJudge & { estimated?: boolean }) | null | undefined): Partial<ReportJudge> | null {
  if (!judgeUsage) return null;
  const { estimated: _estimated, ...rest } = judgeUsage;
  return rest;
}

describe("an engine run's usage and its report", () => {
  it("agree on the agent's counts and the judge's figures when the platform's judge metered every call (METER)", async () => {
    const runId = await engineRun(["m-chars", "m-half", "m-err"]);
    const { usage, report } = await both(evaluationId, runId);
    const summaries = Object.values(report.summary_by_model) as Array<Record<string, number>>;
    const sum = (key: string) => summaries.reduce((n, s) => n + (s[key] ?? 0), 0);
    expect({ priced: usage.agent.priced, estimated: usage.agent.estimated, reported: usage.agent.reported, replays: usage.agent.replays })
      .toEqual({ priced: sum("priced"), estimated: sum("estimated"), reported: sum("reported"), replays: report.results.length });
    expect(asReport(usage.judge)).toEqual(reportJudge(report.judge_usage));
    expect(usage.judge.source).toBe("METER");
  });

  it("count a replay's own judge_usage (its agent's record) instead of the exchanges for that result, as the report does: MIXED", async () => {
    const runId = await engineRun(["m-hostjudge", "m-chars"]);
    const { usage, report } = await both(evaluationId, runId);
    // Each of the 3 m-hostjudge results says 5 calls of its own judge; m-chars' were metered.
    const hostResults = (report.results as Array<{ label: string; metadata: { judge_usage?: unknown } }>).filter((r) => r.label === "m-hostjudge");
    expect(hostResults.map((r) => r.metadata.judge_usage)).toEqual([HOST_JUDGE, HOST_JUDGE, HOST_JUDGE]);
    expect(asReport(usage.judge)).toEqual(reportJudge(report.judge_usage));
    expect(usage.judge.model).toBe("host-judge");
    expect(usage.judge.source).toBe("MIXED");
  });
});

describe("an external run whose host reports its judge's usage (a rules-only evaluation)", () => {
  it("says the host's judge usage as its report does: REPORTED", async () => {
    const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", name: "host judged", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
    const evaluation: string = created.body.data.createEvaluation.evaluationId;
    const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true, selection: { models: ["gpt-5-mini"] }) { runId } }`, { id: evaluation });
    const runId: string = started.body.data.startRun.runId;
    const judge_usage = { calls: 2, input_tokens: 100, output_tokens: 10, cost: 0.004, model: "host-judge", by_kind: { score: 2 } };
    for (const key of ["order_status", "greeting", "refund"]) {
      const recorded = await p.gql(p.keys.acmeWrite, `mutation ($r: ID!, $k: String!, $replay: JSON!) { recordReplay(runId: $r, scenarioKey: $k, modelLabel: "gpt-5-mini", replay: $replay) { duplicate } }`,
        { r: runId, k: key, replay: { answer: "Order 4821 shipped yesterday.", cost: 0.001, metadata: { judge_usage } } });
      expect(recorded.body.errors).toBeUndefined();
    }
    await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { completeExternalRun(runId: $r) { runId } }`, { r: runId });
    await completed(runId);
    const { usage, report } = await both(evaluation, runId);
    expect(report.judge_usage).toMatchObject({ calls: 6, cost: 0.012, model: "host-judge", by_kind: { score: 6 } });
    expect(asReport(usage.judge)).toEqual(reportJudge(report.judge_usage));
    expect(usage.judge.source).toBe("REPORTED");
  });
});

describe("an imported report's judge usage, as its report reads it", () => {
  let imports: string;
  beforeAll(async () => {
    const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "SupportAgent", name: "imports", compareModels: ["m1"] }) { evaluationId } }`);
    imports = created.body.data.createEvaluation.evaluationId;
  });
  const models = { m1: { provider: "openai", model: "m1" } };

  async function imported(hostRunId: string, report: Record<string, unknown>) {
    const envelope = { version: 1, run_id: hostRunId, source: "ci", agent_name: "SupportAgent", suite: "support", report };
    const res = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: imports, e: envelope });
    expect(res.body.errors).toBeUndefined();
    const runId: string = res.body.data.importReport.runId;
    const figures = await p.gql(p.keys.acmeRead, FIGURES, { r: runId });
    expect(figures.body.errors).toBeUndefined();
    // report.json gives the document back as imported; the run's report (report.md, the page) is
    // rebuilt from it, and its judge_usage is this.
    return { judge: figures.body.data.run.usage.judge as JudgeFigures, report: { judge_usage: Report.fromJSON(report as unknown as ReportDocument).judgeUsage } };
  }

  it("reads a result's metadata judge_usage, not the top-level copy beside it, when the two differ", async () => {
    const top = { calls: 2, cost: 0.002, model: "top-judge", by_kind: { score: 2 } };
    const meta = { calls: 7, cost: 0.7, model: "meta-judge", by_kind: { recommend: 7 } };
    const { judge, report } = await imported("usage-report-top", { models, results: [{ scenario_key: "a", label: "m1", status: "passed", score: 1, judge_usage: top, metadata: { judge_usage: meta } }] });
    expect(asReport(judge)).toEqual(reportJudge(report.judge_usage));
    expect(judge).toMatchObject({ calls: 7, cost: 0.7, model: "meta-judge", source: "REPORTED" });
  });

  it("has no run part for an empty run_judge_usage, as the report", async () => {
    const { judge, report } = await imported("usage-report-empty", { models, results: [{ scenario_key: "a", label: "m1", status: "passed", score: 1 }], run_judge_usage: {} });
    expect(report.judge_usage ?? null).toBeNull();
    expect(judge).toMatchObject({ calls: 0, run: null, source: null, byKind: [] });
  });

  it("keeps only the calls, cost and kinds of judge_usage.run, as the report does (not its model or tokens)", async () => {
    const { judge, report } = await imported("usage-report-run", {
      models, results: [{ scenario_key: "a", label: "m1", status: "passed", score: 1 }],
      judge_usage: { calls: 1, run: { calls: 1, cost: 0.001, input_tokens: 500, model: "run-judge", by_kind: { verdict: 1 } } },
    });
    expect(asReport(judge)).toEqual(reportJudge(report.judge_usage));
    expect(judge).toMatchObject({ calls: 1, inputTokens: 0, model: null, run: { calls: 1, cost: 0.001 } });
  });

  it("reads a run_judge_usage with a model that is not text and kinds named any way", async () => {
    const { judge, report } = await imported("usage-report-kinds", {
      models, results: [{ scenario_key: "a", label: "m1", status: "passed", score: 1 }], run_judge_usage: { calls: 3, model: { x: 1 }, by_kind: { verdict: 2, define: 1, "": 0 } },
    });
    expect(asReport(judge)).toEqual(reportJudge(report.judge_usage));
  });

  it("refuses a judge usage naming more than 16 kinds, naming the field (140,000 made every usage read slow)", async () => {
    const kinds = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`k${i}`, 1]));
    const envelope = { version: 1, run_id: "usage-report-flood", source: "ci", agent_name: "SupportAgent", suite: "support",
      report: { models, results: [{ scenario_key: "a", label: "m1", status: "passed", score: 1, judge_usage: { calls: 1, by_kind: kinds } }] } };
    const res = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: imports, e: envelope });
    expect(res.body.errors[0]).toMatchObject({
      message: "report.results[0].judge_usage.by_kind names 1000 kinds, over the 16 limit",
      extensions: { code: "VALIDATION", field: "envelope.report.results[0].judge_usage.by_kind" },
    });
  });
});
