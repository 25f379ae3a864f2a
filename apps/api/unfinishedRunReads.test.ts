// A run that has not completed (still running, or failed) read every way a user reads one: its
// GraphQL fields (fix items, model summaries, verdict) agree with its report (report.md,
// report.json, the page, GraphQL's `report`), which shows what was scored and decides nothing
// that was not recorded. Also: a single-model run has no verdict, and a blank model filter is
// refused everywhere rather than read as "every model" in one place and "none" in another.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG_YAML, collect, startPlatform, type Platform } from "./testing/harness.js";
import { nodes } from "./testing/nodes.js";

let p: Platform;
let evaluationId: string;
let running: string;
let failed: string;
let single: string;

const MODELS = ["gpt-5-mini", "claude-sonnet-5"];
// No lookup_order call: the scenario expects one (a fault, so a fix item).
const UNTOOLED = { answer: "Your order is on its way and should arrive on Friday, tracking to follow." };
const GREETING = { answer: "Hello! How can I help you with your order today? I am here to help." };

async function ok<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const { status, body } = await p.gql<T>(p.keys.acmeRead, query, variables);
  if (body.errors) throw new Error(`${status}: ${JSON.stringify(body.errors)}`);
  return body.data as T;
}

async function startExternal(keys: string[], models = MODELS): Promise<string> {
  const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $k: [String!], $m: [String!]) { startRun(evaluationId: $id, external: true, selection: { keys: $k, models: $m }) { runId } }`, { id: evaluationId, k: keys, m: models });
  return started.body.data.startRun.runId;
}

async function record(runId: string, key: string, model: string, replay: object): Promise<void> {
  const recorded = await p.gql(p.keys.acmeWrite, `mutation ($r: ID!, $k: String!, $m: String!, $replay: JSON!) { recordReplay(runId: $r, scenarioKey: $k, modelLabel: $m, replay: $replay) { scenarioKey } }`, { r: runId, k: key, m: model, replay });
  if (recorded.body.errors) throw new Error(JSON.stringify(recorded.body.errors));
}

/** Waits until the worker has scored `scored` pairs of the run and the read models show it. */
async function scoredUpTo(runId: string, scored: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const data = await ok(`query ($r: ID!) { run(id: $r) { progress { completed } } }`, { r: runId });
    if (data.run.progress.completed >= scored) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`run ${runId} never had ${scored} results scored`);
}

const path = (runId: string) => `/api/evaluations/${evaluationId}/runs/${runId}`;
const text = async (url: string) => {
  const res = await p.get(p.keys.acmeRead, url);
  return { status: res.status, body: await res.text() };
};

beforeAll(async () => {
  p = await startPlatform();
  await p.gql(p.keys.acmeWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`, { yaml: CATALOG_YAML });
  const created = await p.gql(p.keys.acmeWrite, `mutation ($m: [String!]) { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", compareModels: $m }) { evaluationId } }`, { m: MODELS });
  evaluationId = created.body.data.createEvaluation.evaluationId;

  // Running: gpt-5-mini has two of three scored (one faulted), claude-sonnet-5 nothing, refund nothing.
  running = await startExternal(["order_status", "greeting", "refund"]);
  await record(running, "order_status", "gpt-5-mini", UNTOOLED);
  await record(running, "greeting", "gpt-5-mini", GREETING);
  await scoredUpTo(running, 2);

  // Failed: the host asked for completion with pairs never sent.
  failed = await startExternal(["order_status", "greeting", "refund"]);
  await record(failed, "order_status", "gpt-5-mini", UNTOOLED);
  await record(failed, "greeting", "gpt-5-mini", GREETING);
  await scoredUpTo(failed, 2);
  const ended = collect<any>(p.wsClient(p.keys.acmeRead), `subscription ($r: ID!) { runProgress(runId: $r) { status } }`, { r: failed });
  await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { completeExternalRun(runId: $r) { total } }`, { r: failed });
  expect((await ended).at(-1).runProgress.status).toBe("FAILED");

  // One model, completed.
  single = await startExternal(["greeting"], ["gpt-5-mini"]);
  await record(single, "greeting", "gpt-5-mini", GREETING);
  const done = collect<any>(p.wsClient(p.keys.acmeRead), `subscription ($r: ID!) { runProgress(runId: $r) { status } }`, { r: single });
  await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { completeExternalRun(runId: $r) { total } }`, { r: single });
  expect((await done).at(-1).runProgress.status).toBe("COMPLETED");
}, 60_000);

afterAll(() => p?.close());

const RUN_FIELDS = `query ($r: ID!) { run(id: $r) {
  status
  fixItems { edges { node { kind fault models item } } }
  gpt: fixItems(model: "gpt-5-mini") { edges { node { fault } } }
  claude: fixItems(model: "claude-sonnet-5") { edges { node { fault } } }
  models { label summary { passRate avgScore summary } }
  verdict { winner }
  comparison
  report { json fixItemsMarkdown }
} }`;

describe.each([
  ["running", () => running, "RUNNING"],
  ["failed", () => failed, "FAILED"],
])("a %s run's fields", (_name, runId, status) => {
  it("list the fix items and model summaries its report lists, not nothing", async () => {
    const { run } = await ok(RUN_FIELDS, { r: runId() });
    expect(run.status).toBe(status);
    const doc = run.report.json;
    expect(doc.fix_items.map((item: any) => item.fault)).toEqual(["expected_tool_not_called"]);
    expect(nodes(run.fixItems)).toEqual(doc.fix_items.map((item: any) => ({ kind: item.kind.toUpperCase(), fault: item.fault, models: item.models, item })));
    expect(nodes(run.gpt)).toEqual([{ fault: "expected_tool_not_called" }]);
    expect(nodes(run.claude)).toEqual([]);
    const markdown = await text(`${path(runId())}/report.md?part=fix_items`);
    expect(markdown.body).toBe(run.report.fixItemsMarkdown);
    expect(markdown.body).toContain("### expected tool not called ×1");
    // The scored model's summary is the report's; the one with nothing scored has none yet.
    const [gpt, claude] = run.models;
    expect(gpt).toEqual({ label: "gpt-5-mini", summary: { passRate: doc.summary_by_model["gpt-5-mini"].pass_rate, avgScore: doc.summary_by_model["gpt-5-mini"].avg_score, summary: doc.summary_by_model["gpt-5-mini"] } });
    expect(gpt.summary.summary).toMatchObject({ scenarios: 2, passed: 1 });
    expect(claude).toEqual({ label: "claude-sonnet-5", summary: null });
    // Nothing was decided, and nothing says otherwise.
    expect([run.verdict, run.comparison]).toEqual([null, null]);
  });

  it("and its report name no best model or comparison, say when they are decided, and read the same every time", async () => {
    const first = await text(`${path(runId())}/report.md`);
    const again = await text(`${path(runId())}/report.md`);
    expect(again.body).toBe(first.body);
    expect(first.body).not.toMatch(/Best model|### Comparison/);
    const envelope = JSON.parse((await text(`${path(runId())}/report.json`)).body);
    expect(envelope.report).not.toHaveProperty("verdict");
    expect(envelope.report).not.toHaveProperty("comparison");
    const page = (await text(`${path(runId())}/report`)).body;
    expect(page).not.toContain("judge&#39;s pick");
    // The verdict piece, served alone, says the run has not completed and what that leaves open.
    const verdict = await text(`${path(runId())}/report.md?part=verdict`);
    const note = status === "RUNNING"
      ? "_Still running: these figures cover 2 of 6 results; the best model and the comparison are decided when the run completes._"
      : "_This run failed: these figures cover the 2 results scored before it stopped; no best model or comparison was decided, as they are when a run completes._";
    expect(verdict.body).toContain(`\n\n${note}`);
    expect(first.body).toContain(verdict.body);
    const graphql = await ok(`query ($r: ID!) { run(id: $r) { report { verdictMarkdown markdown } } }`, { r: runId() });
    expect(graphql.run.report).toEqual({ verdictMarkdown: verdict.body, markdown: first.body });
  });

  it("answer a selected scenario not scored, and a model with nothing scored, as such: they are in the run", async () => {
    const scenario = await text(`${path(runId())}/report.md?part=scenario&scenario=refund`);
    const expected = status === "RUNNING"
      ? "_Scenario `refund` is not scored yet: the run is still running._"
      : "_Scenario `refund` was not scored: the run failed before it was._";
    expect(scenario).toEqual({ status: 200, body: expected });
    const fix = await text(`${path(runId())}/report.md?part=fix_items&model=claude-sonnet-5`);
    const nothing = status === "RUNNING" ? "Nothing is scored for `claude-sonnet-5` yet." : "Nothing was scored for `claude-sonnet-5` before the run failed.";
    expect(fix).toEqual({ status: 200, body: `## What to fix for \`claude-sonnet-5\`\n\n${nothing}` });
    const graphql = await ok(`query ($r: ID!) { run(id: $r) { report { scenarioMarkdown(key: "refund") fixItemsMarkdown(model: "claude-sonnet-5") } } }`, { r: runId() });
    expect(graphql.run.report).toEqual({ scenarioMarkdown: expected, fixItemsMarkdown: fix.body });
    // A scored scenario is its block; a key the run never selected is still NOT_FOUND.
    expect((await text(`${path(runId())}/report.md?part=scenario&scenario=greeting`)).body).toMatch(/^<details>/);
    const unknown = await p.get(p.keys.acmeRead, `${path(runId())}/report.md?part=scenario&scenario=nope`);
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: "scenario nope is not in this run", code: "NOT_FOUND", field: "scenario" }]);
  });
});

describe("a single-model run", () => {
  it("has no verdict, as its report.json has none", async () => {
    const { run } = await ok(`query ($r: ID!) { run(id: $r) { status models { label } verdict { winner rationale judge } report { json } } }`, { r: single });
    expect(run.status).toBe("COMPLETED");
    expect(run.report.json).not.toHaveProperty("verdict");
    expect(run.verdict).toBeNull();
  });
});

describe("a blank model filter", () => {
  it("is VALIDATION naming model everywhere a model filters, never every model here and none there", async () => {
    for (const runId of [running, single]) {
      for (const blank of ["", "  "]) {
        for (const [field, pathOf] of [
          [`fixItems(model: $m) { totalCount }`, ["run", "fixItems"]],
          [`results(model: $m) { totalCount }`, ["run", "results"]],
          [`report { fixItemsMarkdown(model: $m) }`, ["run", "report", "fixItemsMarkdown"]],
        ] as const) {
          const answer = await p.gql(p.keys.acmeRead, `query ($r: ID!, $m: String) { run(id: $r) { ${field} } }`, { r: runId, m: blank });
          expect(answer.body.errors?.[0]).toMatchObject({ path: pathOf, extensions: { code: "VALIDATION", field: "model" } });
        }
        const rest = await p.get(p.keys.acmeRead, `${path(runId)}/report.md?part=fix_items&model=${encodeURIComponent(blank)}`);
        expect([rest.status, await rest.json()]).toEqual([400, { error: "model must not be blank: name one of the run's model labels, or leave model out for every model", code: "VALIDATION", field: "model" }]);
      }
    }
  });
});
