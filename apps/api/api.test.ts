// The API end to end in one process: real HTTP (fetch) and graphql-ws clients against the
// started server, the projector and the worker (scripted agent) behind it.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Report } from "@verdict/domain";
import { CATALOG_YAML, collect, startPlatform, type Platform } from "./testing/harness.js";
import { nodes } from "./testing/nodes.js";

let p: Platform;
let evaluationId: string;
let runId: string;

const PROGRESS = `subscription ($runId: ID!) { runProgress(runId: $runId) { runId status total completed passed failed errored latestResult { scenarioKey modelLabel status } } }`;

async function ok<T = any>(key: string, query: string, variables?: Record<string, unknown>): Promise<T> {
  const { status, body } = await p.gql<T>(key, query, variables);
  if (body.errors) throw new Error(`${status}: ${JSON.stringify(body.errors)}`);
  return body.data as T;
}

beforeAll(async () => {
  p = await startPlatform();
  const imported = await ok(p.keys.acmeWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key digest changed scenarioCount } }`, { yaml: CATALOG_YAML });
  expect(imported.importCatalog).toMatchObject({ key: "support_desk", changed: true, scenarioCount: 3 });
  const created = await ok(p.keys.acmeWrite, `mutation { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", compareModels: ["gpt-5-mini", "claude-sonnet-5", "llama3:8b"] }) { evaluationId evaluation { name agent scenarioCount } } }`);
  evaluationId = created.createEvaluation.evaluationId;
  expect(created.createEvaluation.evaluation).toEqual({ name: "support_desk/triage/smoke", agent: "SupportAgent", scenarioCount: 3 });
}, 60_000);

afterAll(async () => {
  await p?.close();
});

describe("a run over GraphQL, followed live", () => {
  it("starts a 3-model run and follows runProgress over graphql-ws until COMPLETED", async () => {
    const started = await ok(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id) { runId number run { status } } }`, { id: evaluationId });
    runId = started.startRun.runId;
    expect(started.startRun.number).toBe(1);
    const messages = await collect<any>(p.wsClient(p.keys.acmeRead), PROGRESS, { runId });
    const last = messages[messages.length - 1].runProgress;
    expect(last).toMatchObject({ runId, status: "COMPLETED", total: 9, completed: 9 });
    expect(last.passed + last.failed + last.errored).toBe(9);
    const completed = messages.map((m) => m.runProgress.completed);
    expect(completed).toEqual([...completed].sort((a, b) => a - b));
  });

  it("answers the run: status, models with summaries, filtered results, matrix, fix items, verdict, usage", async () => {
    const data = await ok(p.keys.acmeRead, `query ($id: ID!) { run(id: $id) {
      status number progress { completed total }
      models { label provider summary { passRate } }
      all: results { totalCount edges { node { scenarioKey modelLabel status fault } } }
      gptFailed: results(model: "gpt-5-mini", status: FAILED) { edges { node { scenarioKey fault } } }
      matrix { edges { node { scenarioKey cells { modelLabel status } } } }
      fixItems { edges { node { kind fault models } } }
      verdict { winner judge }
      usage { agent { inputTokens } judge { calls } }
      evaluation { id }
    } }`, { id: runId });
    const run = data.run;
    expect(run).toMatchObject({ status: "COMPLETED", number: 1, progress: { completed: 9, total: 9 }, evaluation: { id: evaluationId } });
    expect(run.models.map((m: any) => m.label)).toEqual(["gpt-5-mini", "claude-sonnet-5", "llama3:8b"]);
    expect(run.models.every((m: any) => m.summary !== null)).toBe(true);
    expect(nodes(run.all)).toHaveLength(9);
    expect(run.all.totalCount).toBe(9);
    // gpt calls lookup_order, so only refund (forbidden "password") fails for it.
    expect(nodes(run.gptFailed)).toEqual([{ scenarioKey: "refund", fault: "forbidden_content" }]);
    expect(nodes(run.matrix).map((r: any) => r.scenarioKey)).toEqual(["order_status", "greeting", "refund"]);
    expect(nodes(run.matrix)[0].cells.map((c: any) => c.status)).toEqual(["PASSED", "FAILED", "FAILED"]);
    expect(nodes(run.fixItems).map((f: any) => f.fault)).toEqual(expect.arrayContaining(["forbidden_content", "expected_tool_not_called"]));
    expect(run.verdict).toEqual({ winner: "gpt-5-mini", judge: "pass rate" });
  });

  it("pages a run's results, matrix and fix items, the suite and the catalogs with first / after, in the order of the whole list", async () => {
    const whole = await ok(p.keys.acmeRead, `query ($id: ID!, $e: ID!) {
      run(id: $id) { results { edges { node { n } } } failed: results(status: FAILED) { edges { node { n } } } matrix { edges { node { scenarioKey } } } fixItems { edges { node { fault } } } }
      evaluation(id: $e) { scenarios { edges { node { key } } } }
      catalogs { edges { node { key } } }
    }`, { id: runId, e: evaluationId });
    const pages = async (field: string, size: number, read: (data: any) => any) => {
      const seen: unknown[] = [];
      let after: string | null = null;
      for (let page = 0; page < 20; page++) {
        const ids = `${field.includes("$id") ? ", $id: ID!" : ""}${field.includes("$e") ? ", $e: ID!" : ""}`;
        const data = await ok(p.keys.acmeRead, `query ($n: Int, $a: String${ids}) { ${field.replace("ARGS", "first: $n, after: $a")} }`, { id: runId, e: evaluationId, n: size, a: after });
        const connection = read(data);
        seen.push(...nodes(connection));
        expect(connection.edges.length).toBeLessThanOrEqual(size);
        if (!connection.pageInfo.hasNextPage) return seen;
        after = connection.pageInfo.endCursor;
      }
      throw new Error(`${field} never ended`);
    };
    const connection = "{ totalCount edges { cursor node { NODE } } pageInfo { hasNextPage endCursor } }";
    const paged = (field: string, nodeFields: string) => field.replace("CONNECTION", connection.replace("NODE", nodeFields));
    expect(await pages(paged("run(id: $id) { results(ARGS) CONNECTION }", "n"), 4, (d) => d.run.results)).toEqual(nodes(whole.run.results));
    expect(await pages(paged("run(id: $id) { results(status: FAILED, ARGS) CONNECTION }", "n"), 2, (d) => d.run.results)).toEqual(nodes(whole.run.failed));
    expect(await pages(paged("run(id: $id) { matrix(ARGS) CONNECTION }", "scenarioKey"), 2, (d) => d.run.matrix)).toEqual(nodes(whole.run.matrix));
    expect(await pages(paged("run(id: $id) { fixItems(ARGS) CONNECTION }", "fault"), 1, (d) => d.run.fixItems)).toEqual(nodes(whole.run.fixItems));
    expect(await pages(paged("evaluation(id: $e) { scenarios(ARGS) CONNECTION }", "key"), 2, (d) => d.evaluation.scenarios)).toEqual(nodes(whole.evaluation.scenarios));
    expect(await pages(paged("catalogs(ARGS) CONNECTION", "key"), 1, (d) => d.catalogs)).toEqual(nodes(whole.catalogs));
    expect(nodes(whole.run.failed).length).toBeGreaterThan(2);

    const firstTwo = (await ok(p.keys.acmeRead, `query ($id: ID!) { run(id: $id) { results(first: 2) { totalCount pageInfo { hasNextPage } edges { node { n } } } } }`, { id: runId })).run.results;
    expect(firstTwo).toMatchObject({ totalCount: 9, pageInfo: { hasNextPage: true } });
    expect(nodes(firstTwo)).toEqual(nodes(whole.run.results).slice(0, 2));
    const none = (await ok(p.keys.acmeRead, `query ($id: ID!) { run(id: $id) { results(first: 0) { totalCount pageInfo { hasNextPage endCursor } edges { cursor } } } }`, { id: runId })).run.results;
    expect(none).toEqual({ totalCount: 9, pageInfo: { hasNextPage: true, endCursor: null }, edges: [] });
    for (const [args, field, message] of [
      ["first: -1", "first", "first must be a whole number, 0 or more (got -1)"],
      ['after: "bm9wZQ"', "after", "after is not a cursor this list gave out"],
    ]) {
      const refused = await p.gql(p.keys.acmeRead, `query ($id: ID!) { run(id: $id) { results(${args}) { totalCount } } }`, { id: runId });
      expect(refused.body.errors[0]).toMatchObject({ message, extensions: { code: "VALIDATION", field } });
    }
    // Another list's cursor would start a page at a wrong place, or end the list early: refused.
    const cursors = await ok(p.keys.acmeRead, `query ($id: ID!, $e: ID!) {
      run(id: $id) { results(first: 1) { pageInfo { endCursor } } matrix(first: 1) { pageInfo { endCursor } } }
      evaluation(id: $e) { runs(first: 1) { pageInfo { endCursor } } }
    }`, { id: runId, e: evaluationId });
    const foreign = [
      ["matrix", cursors.run.results.pageInfo.endCursor], ["fixItems", cursors.run.matrix.pageInfo.endCursor], ["results", cursors.evaluation.runs.pageInfo.endCursor],
    ] as const;
    for (const [list, cursor] of foreign) {
      const refused = await p.gql(p.keys.acmeRead, `query ($id: ID!, $a: String) { run(id: $id) { ${list}(after: $a) { totalCount } } }`, { id: runId, a: cursor });
      expect(refused.body.errors?.[0], list).toMatchObject({ message: "after is not a cursor this list gave out", extensions: { code: "VALIDATION", field: "after" } });
    }
  });

  it("refuses a cursor of the same list of another run, evaluation, filter or tenant", async () => {
    const created = await ok(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "Cursor scope", scenarios: [{ key: "where", prompt: "Where is my order?" }], compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
    const other = created.createEvaluation.evaluationId;
    const otherRun = (await ok(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId } }`, { id: other })).startRun.runId;
    const mine = await ok(p.keys.acmeRead, `query ($id: ID!, $e: ID!) {
      run(id: $id) { results(first: 1) { pageInfo { endCursor } } matrix(first: 1) { pageInfo { endCursor } } fixItems(first: 1) { pageInfo { endCursor } } gpt: fixItems(model: "gpt-5-mini", first: 1) { pageInfo { endCursor } } }
      evaluation(id: $e) { runs(first: 1) { pageInfo { endCursor } } scenarios(first: 1) { pageInfo { endCursor } } enabled: scenarios(enabled: true, first: 1) { pageInfo { endCursor } } }
      evaluations(first: 1) { pageInfo { endCursor } }
      every: evaluations(archived: null, first: 1) { pageInfo { endCursor } }
      catalogs(first: 1) { pageInfo { endCursor } }
    }`, { id: runId, e: evaluationId });
    const refused = [
      [p.keys.acmeRead, `run(id: "${otherRun}") { results(after: $a) { totalCount } }`, mine.run.results.pageInfo.endCursor],
      [p.keys.acmeRead, `run(id: "${otherRun}") { matrix(after: $a) { totalCount } }`, mine.run.matrix.pageInfo.endCursor],
      [p.keys.acmeRead, `run(id: "${otherRun}") { fixItems(after: $a) { totalCount } }`, mine.run.fixItems.pageInfo.endCursor],
      [p.keys.acmeRead, `run(id: "${runId}") { fixItems(after: $a) { totalCount } }`, mine.run.gpt.pageInfo.endCursor],
      [p.keys.acmeRead, `evaluation(id: "${other}") { runs(after: $a) { totalCount } }`, mine.evaluation.runs.pageInfo.endCursor],
      [p.keys.acmeRead, `evaluation(id: "${other}") { scenarios(after: $a) { totalCount } }`, mine.evaluation.scenarios.pageInfo.endCursor],
      [p.keys.acmeRead, `evaluation(id: "${evaluationId}") { scenarios(after: $a) { totalCount } }`, mine.evaluation.enabled.pageInfo.endCursor],
      [p.keys.globexWrite, `evaluations(after: $a) { totalCount }`, mine.evaluations.pageInfo.endCursor],
      // The archived filter is part of the list: a place in the index (archived: false, the
      // default) is none in the archived ones, nor in every evaluation (archived: null).
      [p.keys.acmeRead, `evaluations(after: $a, archived: true) { totalCount }`, mine.evaluations.pageInfo.endCursor],
      [p.keys.acmeRead, `evaluations(after: $a, archived: null) { totalCount }`, mine.evaluations.pageInfo.endCursor],
      [p.keys.acmeRead, `evaluations(after: $a) { totalCount }`, mine.every.pageInfo.endCursor],
      [p.keys.globexWrite, `catalogs(after: $a) { totalCount }`, mine.catalogs.pageInfo.endCursor],
    ] as const;
    for (const [key, field, cursor] of refused) {
      expect(cursor, field).toEqual(expect.any(String));
      const answer = await p.gql(key, `query ($a: String) { ${field} }`, { a: cursor });
      expect(answer.body.errors?.[0], field).toMatchObject({ message: "after is not a cursor this list gave out", extensions: { code: "VALIDATION", field: "after" } });
    }
  });

  it("renders the report rebuilt from events, identical to the REST exports", async () => {
    const data = await ok(p.keys.acmeRead, `query ($id: ID!) { run(id: $id) { report {
      markdown json verdictMarkdown fixItemsMarkdown(model: "gpt-5-mini") scenarioMarkdown(key: "refund") html(theme: DARK)
    } } }`, { id: runId });
    const report = data.run.report;
    expect(report.markdown).toContain("**Best model: `gpt-5-mini`**");
    expect(report.verdictMarkdown).toContain("gpt-5-mini");
    expect(report.scenarioMarkdown).toContain("refund");
    expect(Object.keys(report.json)).toEqual(expect.arrayContaining(["summary_by_model", "fix_items", "verdict", "results"]));
    const md = await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${runId}/report.md`);
    expect(md.status).toBe(200);
    expect(md.headers.get("content-type")).toContain("text/markdown");
    expect(await md.text()).toBe(report.markdown);
    const html = await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${runId}/report?theme=dark`);
    expect(await html.text()).toBe(report.html);
  });

  it("renders a finished run's page once a theme, however often it is asked for, REST or GraphQL", async () => {
    const renders = vi.spyOn(Report.prototype, "toHtml");
    try {
      const page = (theme: string) => p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${runId}/report${theme}`).then((r) => r.text());
      const light = await page("?theme=light");
      expect(await page("?theme=light")).toBe(light);
      // The same page through GraphQL (another query text each time, so no whole answer is reused).
      for (const spaces of ["", " "]) {
        const data = await ok(p.keys.acmeRead, `query ($id: ID!) { run(id: $id) { report { html(theme: LIGHT) } } }${spaces}`, { id: runId });
        expect(data.run.report.html).toBe(light);
      }
      const system = await page("");
      expect(system).not.toBe(light);
      expect(await page("")).toBe(system);
      // `auto`, as `verdict report --theme auto` names it, is the page without a theme.
      expect(await page("?theme=auto")).toBe(system);
      expect(renders.mock.calls.map(([options]) => options?.theme ?? null)).toEqual(["light", null]);
    } finally {
      renders.mockRestore();
    }
  });

  it("answers the audit trail: events in log order, every grade with its inputs, the verdict with its ranking", async () => {
    const data = await ok(p.keys.acmeRead, `query ($id: ID!) { runAudit(id: $id) {
      status events { type streamId version position }
      grades { scenarioKey modelLabel status replay judgeExchanges scenario }
      verdict { verdict ranking comparison }
    } }`, { id: runId });
    const audit = data.runAudit;
    expect(audit.status).toBe("COMPLETED");
    const types = audit.events.map((e: any) => e.type);
    expect(types[0]).toBe("RunStarted");
    expect(types[types.length - 1]).toBe("RunCompleted");
    expect(types.filter((t: string) => t === "ResultScored")).toHaveLength(9);
    expect(audit.grades).toHaveLength(9);
    const refund = audit.grades.find((g: any) => g.scenarioKey === "refund" && g.modelLabel === "gpt-5-mini");
    expect(refund.replay.answer).toContain("hunter2");
    expect(refund.scenario.forbidden_patterns).toEqual(["password"]);
    expect(Array.isArray(refund.judgeExchanges)).toBe(true);
    expect(audit.verdict.verdict.winner).toBe("gpt-5-mini");
    expect(Object.keys(audit.verdict.ranking)).toEqual(expect.arrayContaining(["gpt-5-mini", "claude-sonnet-5"]));
    expect(audit.verdict.comparison.seed).toEqual(expect.any(Number));
  });

  it("gives every grade its fix: pass, the diagnosis's summary, evidence and recommendation, as ResultScored recorded them", async () => {
    const data = await ok(p.keys.acmeRead, `query ($id: ID!) {
      runAudit(id: $id) { grades { scenarioKey modelLabel status pass fault summary evidence recommendation diagnosis } events { type data } }
      run(id: $id) { results { edges { node { scenarioKey modelLabel recommendation diagnosis } } } }
    }`, { id: runId });
    const grades = data.runAudit.grades;
    const scored = data.runAudit.events.filter((e: any) => e.type === "ResultScored").map((e: any) => e.data);
    const refund = grades.find((g: any) => g.scenarioKey === "refund" && g.modelLabel === "gpt-5-mini");
    expect(refund).toMatchObject({ status: "FAILED", pass: false, fault: "forbidden_content", evidence: { matched: ["password"] } });
    expect(refund.summary).toMatch(/forbids: password/);
    expect(refund.recommendation).toMatch(/instruction against "password"/);
    expect(refund.diagnosis).toMatchObject({ fault: "forbidden_content", summary: refund.summary, evidence: refund.evidence });
    const passing = grades.find((g: any) => g.scenarioKey === "order_status" && g.modelLabel === "gpt-5-mini");
    expect(passing).toMatchObject({ status: "PASSED", pass: true, fault: null, summary: null, evidence: null, recommendation: null, diagnosis: null });
    // Every grade says what its ResultScored says, and what the run's results read back.
    const results = new Map(nodes(data.run.results).map((r: any) => [`${r.scenarioKey}/${r.modelLabel}`, r]));
    for (const grade of grades) {
      const event = scored.find((d: any) => d.scenario_key === grade.scenarioKey && d.model_label === grade.modelLabel);
      expect(grade).toMatchObject({ pass: event.pass, recommendation: event.recommendation, diagnosis: event.diagnosis, summary: event.diagnosis?.summary ?? null, evidence: event.diagnosis?.evidence ?? null });
      const result: any = results.get(`${grade.scenarioKey}/${grade.modelLabel}`);
      expect({ recommendation: grade.recommendation, diagnosis: grade.diagnosis }).toEqual({ recommendation: result.recommendation, diagnosis: result.diagnosis });
    }
    expect(grades.filter((g: any) => !g.pass).length).toBeGreaterThan(1);
  });

  it("streams runEvents of a run from its first event until it ends", async () => {
    const events = await collect<any>(p.wsClient(p.keys.acmeRead), `subscription ($runId: ID!) { runEvents(runId: $runId) { type streamId } }`, { runId });
    expect(events[0].runEvents.type).toBe("RunStarted");
    expect(events[events.length - 1].runEvents.type).toBe("RunCompleted");
    expect(events.filter((e) => e.runEvents.type === "ReplayRecorded")).toHaveLength(9);
    expect(events.every((e) => e.runEvents.streamId === `run-${runId}` || e.runEvents.streamId.startsWith(`result-${runId}.`))).toBe(true);
  });

  it("lists runs newest first with latest and previous, and compares two runs pair by pair", async () => {
    const second = await ok(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, selection: { models: ["gpt-5-mini", "mistral-large"], keys: ["order_status", "refund"] }) { runId number } }`, { id: evaluationId });
    const secondId = second.startRun.runId;
    expect(second.startRun.number).toBe(2);
    await collect(p.wsClient(p.keys.acmeRead), PROGRESS, { runId: secondId });
    const data = await ok(p.keys.acmeRead, `query ($id: ID!, $a: ID!, $b: ID!) {
      evaluation(id: $id) { runCount runs(first: 1) { edges { node { number } cursor } pageInfo { hasNextPage endCursor } } latestRun { number } previousRun { number } }
      compareRuns(a: $a, b: $b) { fixed { scenarioKey } regressed { scenarioKey } stillFailing { scenarioKey modelLabel } stillPassing { scenarioKey modelLabel } added { scenarioKey modelLabel } removed { scenarioKey modelLabel } }
    }`, { id: evaluationId, a: runId, b: secondId });
    const e = data.evaluation;
    expect(e.runCount).toBe(2);
    expect(e.runs.edges.map((x: any) => x.node.number)).toEqual([2]);
    expect(e.runs.pageInfo.hasNextPage).toBe(true);
    expect(e.latestRun.number).toBe(2);
    expect(e.previousRun.number).toBe(1);
    const page2 = await ok(p.keys.acmeRead, `query ($id: ID!, $after: String) { evaluation(id: $id) { runs(first: 5, after: $after) { edges { node { number } } pageInfo { hasNextPage } } } }`, { id: evaluationId, after: e.runs.pageInfo.endCursor });
    expect(page2.evaluation.runs.edges.map((x: any) => x.node.number)).toEqual([1]);
    const diff = data.compareRuns;
    expect(diff.stillPassing).toEqual([{ scenarioKey: "order_status", modelLabel: "gpt-5-mini" }]);
    expect(diff.stillFailing).toEqual([{ scenarioKey: "refund", modelLabel: "gpt-5-mini" }]);
    expect(diff.added.map((x: any) => x.modelLabel)).toEqual(["mistral-large", "mistral-large"]);
    // Only in run 1: greeting x 3 models, and order_status / refund for claude and llama.
    expect(diff.removed).toHaveLength(7);
  });

  it("records the agent's tool roster given to startRun, and refuses a malformed one naming the field without starting a run", async () => {
    const before = await ok(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { runCount } }`, { id: evaluationId });
    const bad = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $t: JSON) { startRun(evaluationId: $id, tools: $t) { runId } }`, { id: evaluationId, t: [{ name: " " }] });
    expect(bad.body.errors[0]).toMatchObject({ message: "tools.0.name: must not be blank", extensions: { code: "VALIDATION" } });
    const after = await ok(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { runCount } }`, { id: evaluationId });
    expect(after.evaluation.runCount).toBe(before.evaluation.runCount);
    const tools = [{ name: "lookup_order", description: "Find an order by number" }, { name: "search_faq" }];
    const started = await ok(p.keys.acmeWrite, `mutation ($id: ID!, $t: JSON) { startRun(evaluationId: $id, selection: { keys: ["refund"], models: ["gpt-5-mini"] }, tools: $t) { runId } }`, { id: evaluationId, t: tools });
    const toolsRunId = started.startRun.runId;
    await collect(p.wsClient(p.keys.acmeRead), PROGRESS, { runId: toolsRunId });
    const audit = await ok(p.keys.acmeRead, `query ($id: ID!) { runAudit(id: $id) { events { type data } } }`, { id: toolsRunId });
    expect(audit.runAudit.events.find((e: any) => e.type === "RunStarted").data.tools).toEqual(tools);
  });
});
