// Tenancy, roles, limits, validation and the REST exports, against the started server with real
// HTTP and graphql-ws clients.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readWholeStream, evaluationStream, importedRunId, runStream } from "@verdict/domain";
import { ScriptedJudge } from "@verdict/infra/judges";
import { JUDGE_SCRIPT, collect, finishedSampleRun, rawWsSession, startPlatform, type Platform } from "./testing/harness.js";
import { nodes } from "./testing/nodes.js";

let p: Platform;
let evaluationId: string;
let runId: string;
const base = () => `/api/evaluations/${evaluationId}/runs/${runId}`;

/** What the API logged, one entry a call. */
const logged: string[] = [];

beforeAll(async () => {
  p = await startPlatform({
    limits: { maxDepth: 6, bodyLimit: "64kb" },
    judge: ScriptedJudge.fromYaml(JUDGE_SCRIPT),
    log: (message, error) => logged.push(error === undefined ? message : `${message}: ${String(error)}`),
  });
  ({ evaluationId, runId } = await finishedSampleRun(p, ["gpt-5-mini", "claude-sonnet-5"]));
}, 60_000);

afterAll(() => p?.close());

describe("tenancy and roles", () => {
  it("shows a second tenant none of the first tenant's data; its ids answer NOT_FOUND like missing ones", async () => {
    const lists = await p.gql(p.keys.globexWrite, `{ catalogs { totalCount edges { node { key } } } evaluations { totalCount edges { node { id } } } }`);
    expect(lists.body.data).toEqual({ catalogs: { totalCount: 0, edges: [] }, evaluations: { totalCount: 0, edges: [] } });
    for (const query of [`{ run(id: "${runId}") { id } }`, `{ evaluation(id: "${evaluationId}") { id } }`, `{ runAudit(id: "${runId}") { runId } }`, `{ catalog(key: "support_desk") { key } }`]) {
      const foreign = await p.gql(p.keys.globexWrite, query);
      const missing = await p.gql(p.keys.globexWrite, query.replace(runId, "no-such-run").replace(evaluationId, "no-such-evaluation").replace("support_desk", "no_such"));
      expect(foreign.body.errors[0].extensions.code).toBe("NOT_FOUND");
      expect(missing.body.errors[0].extensions.code).toBe("NOT_FOUND");
    }
    const rest = await p.get(p.keys.globexWrite, `${base()}/report.md`);
    expect(rest.status).toBe(404);
    await expect(collect(p.wsClient(p.keys.globexWrite), `subscription ($runId: ID!) { runProgress(runId: $runId) { status } }`, { runId })).rejects.toThrow(/not found/);
    const started = await p.gql(p.keys.globexWrite, `mutation ($id: ID!) { startRun(evaluationId: $id) { runId } }`, { id: evaluationId });
    expect(started.body.errors[0].extensions.code).toBe("NOT_FOUND");
  });

  it("answers every other way to another tenant's run NOT_FOUND and writes nothing: audit events live, diffs, external-run mutations, exports", async () => {
    const before = (await p.store.readAll({ limit: 100_000 })).length;
    const g = p.keys.globexWrite;
    await expect(collect(p.wsClient(g), `subscription ($r: ID!) { runEvents(runId: $r) { type } }`, { r: runId })).rejects.toMatchObject({ errors: [{ extensions: { code: "NOT_FOUND" } }] });
    const answers = await Promise.all([
      p.gql(g, `query ($r: ID!) { compareRuns(a: $r, b: $r) { a } }`, { r: runId }),
      p.gql(g, `mutation ($r: ID!) { recordReplay(runId: $r, scenarioKey: "greeting", modelLabel: "gpt-5-mini", replay: { answer: "Hi" }) { runId } }`, { r: runId }),
      p.gql(g, `mutation ($r: ID!) { completeExternalRun(runId: $r) { runId } }`, { r: runId }),
      p.gql(g, `mutation ($id: ID!) { importReport(evaluationId: $id, envelope: { version: 1, run_id: "planted", source: "s", agent_name: "a", suite: "s", report: { models: {} } }) { runId } }`, { id: evaluationId }),
      p.gql(g, `mutation ($id: ID!) { replaceScenarios(evaluationId: $id, scenariosText: "Hello") { added } }`, { id: evaluationId }),
    ]);
    for (const answer of answers) expect(answer.body.errors[0].extensions.code).toBe("NOT_FOUND");
    // The mutations on a run are given its id as `runId`, and their not-found says so.
    expect([answers[1], answers[2]].map((answer) => answer.body.errors[0].extensions.field)).toEqual(["runId", "runId"]);
    for (const ext of ["", ".md", ".json"]) expect((await p.get(g, `${base()}/report${ext}`)).status).toBe(404);
    expect((await p.store.readAll({ limit: 100_000 })).length).toBe(before);
  });

  it("refuses mutations from a read key with FORBIDDEN and writes nothing", async () => {
    const before = (await readWholeStream(p.store, evaluationStream(evaluationId))).length;
    const res = await p.gql(p.keys.acmeRead, `mutation ($id: ID!) { mergeScenarios(evaluationId: $id, scenariosText: "How do I reset my password?") { added } }`, { id: evaluationId });
    expect(res.body.errors[0].extensions.code).toBe("FORBIDDEN");
    expect((await readWholeStream(p.store, evaluationStream(evaluationId))).length).toBe(before);
  });

  it("answers 401 UNAUTHENTICATED without a key or with an unknown one, on GraphQL, REST and graphql-ws", async () => {
    const none = await p.gql(null, `{ catalogs { edges { node { key } } } }`);
    expect(none.status).toBe(401);
    expect(none.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    expect((await p.gql("vk_000000000000_notarealkeynotarealkeynotarealkey00", `{ catalogs { edges { node { key } } } }`)).status).toBe(401);
    expect((await p.get(null, `${base()}/report.json`)).status).toBe(401);
    await expect(collect(p.wsClient("wrong"), `subscription ($runId: ID!) { runProgress(runId: $runId) { status } }`, { runId })).rejects.toBeTruthy();
  });
});

describe("limits and validation", () => {
  it("refuses a query nested deeper than the limit before running it", async () => {
    const res = await p.gql(p.keys.acmeRead, `{ run(id: "${runId}") { evaluation { latestRun { evaluation { latestRun { evaluation { latestRun { id } } } } } } } }`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/nested 7 levels deep; the limit is 6/);
  });

  it("refuses a query whose estimated cost is over the limit", async () => {
    const res = await p.gql(p.keys.acmeRead, `{ evaluations(first: 100) { edges { node { runs(first: 100) { edges { node { id } } } } } } }`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ extensions: { code: "VALIDATION" } });
    expect(res.body.errors[0].message).toMatch(/query costs \d+; the limit is 5000/);
    // Page sizes given as variables count too.
    const viaVariables = await p.gql(p.keys.acmeRead, `query ($n: Int) { evaluations(first: $n) { edges { node { runs(first: $n) { edges { node { id } } } } } } }`, { n: 100 });
    expect(viaVariables.body.errors[0].message).toMatch(/query costs \d+; the limit is 5000/);
    // A page size that is no Int is refused for its type, not for a cost it could never have.
    const notInt = await p.gql(p.keys.acmeRead, `query ($n: Int) { evaluations(first: $n) { totalCount edges { node { name } } } }`, { n: 2 ** 31 });
    expect(notInt.status).toBe(400);
    expect(notInt.body.errors).toMatchObject([{ message: expect.stringContaining("Int cannot represent non 32-bit signed integer value: 2147483648"), extensions: { code: "BAD_USER_INPUT" } }]);
    const ws = collect(p.wsClient(p.keys.acmeRead), `subscription ($r: ID!) { runProgress(runId: $r) { status } }`, { r: runId });
    await expect(ws).resolves.toBeTruthy();
    // A run's whole result list is not a 20-item page: one is answered, ten aliases of it are refused.
    const results = (n: number) => `query ($r: ID!) { run(id: $r) { ${Array.from({ length: n }, (_, i) => `r${i}: results { edges { node { scenarioKey status } } }`).join(" ")} } }`;
    expect((await p.gql(p.keys.acmeRead, results(1), { r: runId })).body.data.run.r0.edges.length).toBeGreaterThan(0);
    expect((await p.gql(p.keys.acmeRead, results(10), { r: runId })).body.errors[0].message).toMatch(/query costs \d+; the limit is 5000/);
  });

  it("refuses persisted queries with VALIDATION naming extensions.persistedQuery, so no tenant can probe or evict another's", async () => {
    // Apollo's APQ cache was one for the whole process: a hash another tenant had registered answered
    // with data, an unknown one PERSISTED_QUERY_NOT_FOUND. Now every form is refused alike.
    const query = "{ catalogs { edges { node { key } } } }";
    const sha256Hash = createHash("sha256").update(query).digest("hex");
    const post = async (key: string, body: object) => {
      const res = await fetch(p.api.graphqlUrl, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as any };
    };
    const refused = {
      status: 400,
      body: { errors: [{ message: "extensions.persistedQuery: persisted queries are not supported; send the operation's text in `query`, without extensions.persistedQuery", extensions: { code: "VALIDATION", field: "extensions.persistedQuery" } }] },
    };
    // Acme registers its query the APQ way; globex then asks for it by hash alone, and for one never sent.
    expect(await post(p.keys.acmeRead, { query, extensions: { persistedQuery: { version: 1, sha256Hash } } })).toEqual(refused);
    expect(await post(p.keys.globexWrite, { extensions: { persistedQuery: { version: 1, sha256Hash } } })).toEqual(refused);
    expect(await post(p.keys.globexWrite, { extensions: { persistedQuery: { version: 1, sha256Hash: "0".repeat(64) } } })).toEqual(refused);
    for (const wrong of [{ version: 1, sha256Hash: "abc" }, { version: 2, sha256Hash: "abc" }]) {
      expect(await post(p.keys.acmeRead, { query, extensions: { persistedQuery: wrong } })).toEqual(refused);
    }
    // A finished run's answer is kept and sent again to the same query; never to one with the extension.
    const runQuery = `{ run(id: "${runId}") { id status } }`;
    for (let i = 0; i < 2; i++) expect((await post(p.keys.acmeRead, { query: runQuery })).body.data.run).toEqual({ id: runId, status: "COMPLETED" });
    const runHash = createHash("sha256").update(runQuery).digest("hex");
    expect(await post(p.keys.acmeRead, { query: runQuery, extensions: { persistedQuery: { version: 1, sha256Hash: runHash } } })).toEqual(refused);
    const extensions = encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash } }));
    const get = await fetch(`${p.api.graphqlUrl}?extensions=${extensions}`, { headers: { authorization: `Bearer ${p.keys.globexWrite}`, "apollo-require-preflight": "true" } });
    expect({ status: get.status, body: await get.json() }).toEqual(refused);
  });

  it("refuses a body that is not UTF-8 with the offset of the byte, where it was stored with U+FFFD in its place", async () => {
    const yaml = "catalog: latin1\ndescription: caf\u00e9\nproducts: []\n";
    const json = JSON.stringify({ query: "mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }", variables: { yaml } });
    const body = Buffer.from(json, "latin1"); // the é as one byte, 0xe9
    const res = await fetch(p.api.graphqlUrl, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${p.keys.acmeWrite}` }, body });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: { errors: [{ message: `request body is not UTF-8 text: the byte at offset ${json.indexOf("\u00e9")} is not valid UTF-8 (send the body as UTF-8)`, extensions: { code: "VALIDATION" } }] },
    });
    expect((await p.gql(p.keys.acmeWrite, `{ catalog(key: "latin1") { key } }`)).body.errors[0].extensions.code).toBe("NOT_FOUND");
    // The same text as UTF-8 is taken.
    expect((await p.gql(p.keys.acmeWrite, "mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }", { yaml })).body.data.importCatalog.key).toBe("latin1");
  });

  it("answers 413 for a body over the limit", async () => {
    const res = await p.gql(p.keys.acmeWrite, `mutation ($t: String!) { mergeScenarios(evaluationId: "${evaluationId}", scenariosText: $t) { added } }`, { t: "x".repeat(70_000) });
    expect(res.status).toBe(413);
    expect(res.body.errors[0].extensions.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("holds a graphql-ws message to the body limit too, closing the socket with 1009", async () => {
    const padded = (n: number) => ({ id: "1", type: "subscribe", payload: { query: `query ($pad: String!) { catalog(key: $pad) { key } }`, variables: { pad: "x".repeat(n) } } });
    const small = await rawWsSession(p.api.wsUrl, p.keys.acmeRead, [padded(1_000)], (frames) => frames.some((f) => f.type === "complete"));
    expect(small.frames.find((f) => f.type === "next").payload.errors[0].extensions.code).toBe("NOT_FOUND");
    const big = await rawWsSession(p.api.wsUrl, p.keys.acmeRead, [padded(70_000)], (frames) => frames.some((f) => f.type === "complete"));
    expect(big.closed).toBe(1009); // RFC 6455: message too big
    expect(big.frames.map((f) => f.type)).toEqual(["connection_ack"]);
    // One line in the API's log, not graphql-ws's "internal error" with a stack on the console.
    expect(logged.filter((line) => line.includes("1009"))).toEqual(["graphql-ws: closed a socket (1009) whose message was over the 64kb limit"]);
  });

  it("names the bad field and writes nothing on bad input", async () => {
    const before = (await p.store.readAll({ limit: 100_000 })).length;
    for (const field of ["agent", "name"]) {
      const blank = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { ${field === "agent" ? 'agent: "", name: "N"' : 'agent: "A", name: ""'}, scenariosText: "Where is my order?" }) { evaluationId } }`);
      expect(blank.body.errors[0].extensions).toEqual({ code: "VALIDATION", field: `input.${field}` });
      expect(blank.body.errors[0].message).toMatch(new RegExp(`: input\\.${field}: must not be blank`));
    }
    const bad = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "N", threshold: 3 }) { evaluationId } }`);
    expect(bad.body.errors[0].extensions.code).toBe("VALIDATION");
    expect(bad.body.errors[0].message).toMatch(/threshold/);
    const keys = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { mergeScenarios(evaluationId: $id, scenarios: [{ key: "a", prompt: "x" }, { key: "a", prompt: "y" }]) { added } }`, { id: evaluationId });
    expect(keys.body.errors[0].extensions.code).toBe("VALIDATION");
    const selection = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, selection: { keys: [] }) { runId } }`, { id: evaluationId });
    expect(selection.body.errors[0].extensions).toMatchObject({ code: "VALIDATION", field: "selection.keys" });
    // No models is refused as no keys is, rather than running every compare model.
    const noModels = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, selection: { models: [] }) { runId } }`, { id: evaluationId });
    expect(noModels.body.errors[0]).toMatchObject({ message: "selection.models: name at least one model, or omit models", extensions: { code: "VALIDATION", field: "selection.models" } });
    expect((await p.store.readAll({ limit: 100_000 })).length).toBe(before);
  });
});

describe("REST report exports", () => {
  it("serves HTML (themes), Markdown parts and the JSON envelope, with download names", async () => {
    const html = await p.get(p.keys.acmeRead, `${base()}/report?theme=light&download=1`);
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toContain("text/html");
    expect(html.headers.get("content-disposition")).toBe('attachment; filename="support_desk-triage-smoke-run-1.html"');
    expect(await html.text()).toMatch(/^<!DOCTYPE html>/i);
    expect((await p.get(p.keys.acmeRead, `${base()}/report?theme=sepia`)).status).toBe(400);

    const verdict = await p.get(p.keys.acmeRead, `${base()}/report.md?part=verdict`);
    expect(await verdict.text()).toContain("gpt-5-mini");
    expect(verdict.headers.get("content-disposition")).toBeNull();
    const fixes = await (await p.get(p.keys.acmeRead, `${base()}/report.md?part=fix_items&model=claude-sonnet-5`)).text();
    expect(fixes).toContain("### expected tool not called ×1");
    const scenario = await (await p.get(p.keys.acmeRead, `${base()}/report.md?part=scenario&scenario=refund`)).text();
    expect(scenario).toContain("hunter2");
    const unknown = await p.get(p.keys.acmeRead, `${base()}/report.md?part=summary`);
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as any).code).toBe("VALIDATION");
    expect((await p.get(p.keys.acmeRead, `${base()}/report.md?part=scenario`)).status).toBe(400);
    expect((await p.get(p.keys.acmeRead, `${base()}/report.md?part=scenario&scenario=nope`)).status).toBe(404);
    const viaGraphql = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { report { scenarioMarkdown(key: "nope") } } }`, { r: runId });
    expect(viaGraphql.body.errors[0]).toMatchObject({ message: "scenario nope is not in this run", extensions: { code: "NOT_FOUND", field: "key" } });
    // A model not among the run's labels is NOT_FOUND too, not "Nothing to fix.", wherever fix items take one.
    const unknownScenario = (await (await p.get(p.keys.acmeRead, `${base()}/report.md?part=scenario&scenario=nope`)).json()) as any;
    const noSuchModel = await p.get(p.keys.acmeRead, `${base()}/report.md?part=fix_items&model=gpt-5`);
    expect(noSuchModel.status).toBe(404);
    const noSuchModelBody = (await noSuchModel.json()) as any;
    expect(Object.keys(noSuchModelBody).sort()).toEqual(Object.keys(unknownScenario).sort());
    expect(noSuchModelBody).toEqual({ error: "model gpt-5 is not in this run (its models: gpt-5-mini, claude-sonnet-5)", code: "NOT_FOUND", field: "model" });
    expect((await p.get(p.keys.acmeRead, `${base()}/report.md?part=fix_items&model=${encodeURIComponent("openai/gpt-5-mini")}`)).status).toBe(404);
    for (const [query, path] of [['fixItems(model: "gpt-5") { edges { node { fault } } }', "run.fixItems"], ['report { fixItemsMarkdown(model: "gpt-5") }', "run.report.fixItemsMarkdown"]]) {
      const modelViaGraphql = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { ${query} } }`, { r: runId });
      expect(modelViaGraphql.body.errors[0]).toMatchObject({ path: path.split("."), extensions: { code: "NOT_FOUND", field: "model" } });
    }
    const known = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { fixItems(model: "claude-sonnet-5") { edges { node { fault } } } report { fixItemsMarkdown(model: "claude-sonnet-5") } } }`, { r: runId });
    expect(known.body.errors).toBeUndefined();
    expect(known.body.data.run.report.fixItemsMarkdown).toContain("### expected tool not called ×1");

    const yes = await p.get(p.keys.acmeRead, `${base()}/report.md?download=yes`);
    expect(yes.status).toBe(400);
    expect(await yes.json()).toEqual({ error: 'download must be 1 (an attachment) or 0 (got "yes")', code: "VALIDATION", field: "download" });
    expect((await p.get(p.keys.acmeRead, `${base()}/report.md?download=0`)).headers.get("content-disposition")).toBeNull();
    const md = await p.get(p.keys.acmeRead, `${base()}/report.md?download=1`);
    expect(md.headers.get("content-disposition")).toBe('attachment; filename="support_desk-triage-smoke-run-1.md"');
    const json = await p.get(p.keys.acmeRead, `${base()}/report.json?download=1`);
    expect(json.headers.get("content-disposition")).toBe('attachment; filename="support_desk-triage-smoke-run-1.json"');
    const envelope = (await json.json()) as any;
    expect(envelope).toMatchObject({ version: 1, run_id: runId, source: "verdict", agent_name: "SupportAgent", suite: "support_desk/triage/smoke" });
    expect(envelope.report.verdict.winner).toBe("gpt-5-mini");
    expect((await p.get(p.keys.acmeRead, `/api/evaluations/other/runs/${runId}/report.json`)).status).toBe(404);
    // An unknown run names the path parameter it came in (it said `id`): `runId` under an
    // evaluation, the host's `run_id` (reference-platform §6.3) by handle (it said `runId`).
    const noSuchRun = "00000000-0000-4000-8000-000000000000";
    const routes = [
      [`/api/evaluations/${evaluationId}/runs/${noSuchRun}/report.json`, noSuchRun, "runId"],
      [`/api/evaluations/${evaluationId}/runs/${noSuchRun}/report.md`, noSuchRun, "runId"],
      [`/api/evaluation_reports/${noSuchRun}`, noSuchRun, "run_id"],
      [`/api/evaluation_reports/nightly-42`, "nightly-42", "run_id"],
    ];
    for (const [path, shown, field] of routes) {
      const noRun = await p.get(p.keys.acmeRead, path);
      expect([noRun.status, await noRun.json()], path).toEqual([404, { error: `run ${shown} not found`, code: "NOT_FOUND", field }]);
    }
    // A run asked for under an evaluation that is not the tenant's names the evaluation: a
    // mistyped evaluation id read as "run … not found", naming the run the caller had right.
    const noSuchEvaluation = "00000000-0000-4000-8000-00000000000e";
    const wrongEvaluation = await p.get(p.keys.acmeRead, `/api/evaluations/${noSuchEvaluation}/runs/${runId}/report.md`);
    expect([wrongEvaluation.status, await wrongEvaluation.json()]).toEqual([404, { error: `evaluation ${noSuchEvaluation} not found`, code: "NOT_FOUND", field: "id" }]);
    // The path is read in order: with both ids wrong, the evaluation is what is missing first.
    const bothWrong = await p.get(p.keys.acmeRead, `/api/evaluations/${noSuchEvaluation}/runs/${noSuchRun}/report.md`);
    expect([bothWrong.status, await bothWrong.json()]).toEqual([404, { error: `evaluation ${noSuchEvaluation} not found`, code: "NOT_FOUND", field: "id" }]);
    // A NUL is refused as in GraphQL, not looked up and echoed back in a 404.
    const nul = await p.get(p.keys.acmeRead, `${base()}/report.md?part=scenario&scenario=%00`);
    expect(nul.status).toBe(400);
    expect(await nul.json()).toMatchObject({ code: "VALIDATION", field: "scenario" });
  });

  it("names a very long unknown id in a NOT_FOUND message by its first 200 characters, not whole", async () => {
    const id = "x".repeat(50_000);
    const answer = await p.gql(p.keys.acmeRead, `query ($id: ID!) { run(id: $id) { id } }`, { id });
    expect(answer.body.errors[0]).toMatchObject({ message: `run ${"x".repeat(200)}… (50000 characters) not found`, extensions: { code: "NOT_FOUND", field: "id" } });
  });

  it("answers a path id that is no id 404 as any unknown one, without echoing its control characters", async () => {
    // `%00` came back as `run \u0000 not found`, a terminal's escape sequence as sent.
    const paths = [
      [`/api/evaluations/${evaluationId}/runs/%00/report.json`, "run \uFFFD not found", "runId"],
      [`/api/evaluation_reports/%00`, "run \uFFFD not found", "run_id"],
      [`/api/evaluations/%1B%5B2J/runs/${runId}/report.json`, "evaluation \uFFFD[2J not found", "id"],
    ];
    for (const [path, error, field] of paths) {
      const answer = await p.get(p.keys.acmeRead, path);
      expect([answer.status, await answer.json()], path).toEqual([404, { error, code: "NOT_FOUND", field }]);
    }
    const control = await p.gql(p.keys.acmeRead, `query ($id: ID!) { run(id: $id) { id } }`, { id: "r\u0007\u202e1" });
    expect(control.body.errors[0]).toMatchObject({ message: "run r\uFFFD\uFFFD1 not found", extensions: { code: "NOT_FOUND", field: "id" } });
  });

  it("names at most 200 characters of a scenario key, a model or a catalog set path in a NOT_FOUND message", async () => {
    const scenario = await p.gql(p.keys.acmeRead, `query ($r: ID!, $k: String!) { run(id: $r) { report { scenarioMarkdown(key: $k) } } }`, { r: runId, k: "k".repeat(50_000) });
    expect(scenario.body.errors[0]).toMatchObject({ message: `scenario ${"k".repeat(200)}… (50000 characters) is not in this run`, extensions: { code: "NOT_FOUND", field: "key" } });
    const model = await p.get(p.keys.acmeRead, `${base()}/report.md?part=fix_items&model=gpt%1B${"m".repeat(5000)}`);
    expect(((await model.json()) as { error: string }).error).toBe(`model gpt\uFFFD${"m".repeat(196)}… (5004 characters) is not in this run (its models: gpt-5-mini, claude-sonnet-5)`);
    // Every product the path could start with was named: 8 KB of `a/a/a/…` answered 16 MB.
    const set = await p.gql(p.keys.acmeWrite, `mutation ($s: String) { createEvaluation(input: { fromCatalogSet: $s }) { evaluationId } }`, { s: `support_desk/${"a/".repeat(4000)}x` });
    expect(set.body.errors[0]).toMatchObject({
      message: 'no product "a" or "a/a" or "a/a/a" or "a/a/a/a" or "a/a/a/a/a" (or 3995 longer ones) in catalog support_desk',
      extensions: { code: "NOT_FOUND", field: "input.fromCatalogSet" },
    });
  });
});

describe("external runs and imported reports", () => {
  it("records an external run's replays and the run completes once every pair is recorded", async () => {
    const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true, selection: { keys: ["greeting"], models: ["gpt-5-mini"] }) { runId } }`, { id: evaluationId });
    const external = started.body.data.startRun.runId;
    // A NUL and a lone surrogate in what the agent said are recorded as U+FFFD, not refused.
    const replay = { answer: "Hello!\u0000 How can I help you with your order today? I am here for you \ud83d", tool_calls: [] };
    const done = collect<any>(p.wsClient(p.keys.acmeRead), `subscription ($runId: ID!) { runProgress(runId: $runId) { status completed } }`, { runId: external });
    const recorded = await p.gql(p.keys.acmeWrite, `mutation ($r: ID!, $replay: JSON!) { recordReplay(runId: $r, scenarioKey: "greeting", modelLabel: "gpt-5-mini", replay: $replay) { scenarioKey } }`, { r: external, replay });
    expect(recorded.body.data.recordReplay.scenarioKey).toBe("greeting");
    // Sent again as it was (its NUL and lone surrogate too): the same replay, a no-op. A pair
    // outside the selection or a different replay fails the run (externalPairs.test.ts).
    const again = await p.gql(p.keys.acmeWrite, `mutation ($r: ID!, $replay: JSON!) { recordReplay(runId: $r, scenarioKey: "greeting", modelLabel: "gpt-5-mini", replay: $replay) { scenarioKey duplicate } }`, { r: external, replay });
    expect(again.body.data.recordReplay).toEqual({ scenarioKey: "greeting", duplicate: true });
    const completion = await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { completeExternalRun(runId: $r) { total } }`, { r: external });
    expect(completion.body.data.completeExternalRun.total).toBe(1);
    const messages = await done;
    expect(messages[messages.length - 1].runProgress).toEqual({ status: "COMPLETED", completed: 1 });
    const results = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { results { edges { node { answer } } } } }`, { r: external });
    expect(nodes(results.body.data.run.results)).toEqual([{ answer: "Hello!\ufffd How can I help you with your order today? I am here for you \ufffd" }]);
  });

  it("serves a failed run's report saying it failed, why, and that it covers only what was scored", async () => {
    const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true, selection: { keys: ["greeting", "refund"], models: ["gpt-5-mini"] }) { runId } }`, { id: evaluationId });
    const failed = started.body.data.startRun.runId;
    await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { recordReplay(runId: $r, scenarioKey: "greeting", modelLabel: "gpt-5-mini", replay: { answer: "Hello! How can I help you today?" }) { scenarioKey } }`, { r: failed });
    // Completing with a pair never recorded fails the run, naming the pair.
    await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { completeExternalRun(runId: $r) { total } }`, { r: failed });
    const run = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { status errorMessage } }`, { r: failed });
    expect(run.body.data.run.status).toBe("FAILED");
    const path = `/api/evaluations/${evaluationId}/runs/${failed}`;
    const markdown = await (await p.get(p.keys.acmeRead, `${path}/report.md`)).text();
    expect(markdown).toContain(
      "> **This run failed: the report covers the 1 result scored before it stopped.** The external run did not report every selected scenario and model exactly once: missing refund × gpt-5-mini\n",
    );
    const html = await (await p.get(p.keys.acmeRead, `${path}/report`)).text();
    expect(html).toContain('<p class="failure" role="alert"><strong>This run failed: the report covers the 1 result scored before it stopped.</strong>');
    const envelope = (await (await p.get(p.keys.acmeRead, `${path}/report.json`)).json()) as any;
    expect(envelope.report.failure).toBe(run.body.data.run.errorMessage);
    // Imported, it would become a completed run that can head the evaluation: refused.
    envelope.run_id = "failed-elsewhere";
    const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: evaluationId, e: envelope });
    expect(imported.body.errors[0]).toMatchObject({ message: "report.failure: a failed run's report cannot be imported as a completed run", extensions: { code: "VALIDATION", field: "envelope.report.failure" } });
  });

  it("serves a running run's report saying it is still running and how much is scored; importing it is refused and writes nothing", async () => {
    const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true, selection: { keys: ["greeting", "refund", "order_status"], models: ["gpt-5-mini"] }) { runId } }`, { id: evaluationId });
    const running = started.body.data.startRun.runId;
    await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { recordReplay(runId: $r, scenarioKey: "greeting", modelLabel: "gpt-5-mini", replay: { answer: "Hello! How can I help you today?" }) { scenarioKey } }`, { r: running });
    const notice = "This run is still running: the report covers the 1 result scored so far, of 3.";
    const path = `/api/evaluations/${evaluationId}/runs/${running}`;
    expect(await (await p.get(p.keys.acmeRead, `${path}/report.md`)).text()).toContain(`\n> **${notice}**\n`);
    expect(await (await p.get(p.keys.acmeRead, `${path}/report`)).text()).toContain(`<p class="in-progress" role="status"><strong>${notice}</strong></p>`);
    const graphql = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { status report { markdown json } } }`, { r: running });
    expect(graphql.body.data.run.status).toBe("RUNNING");
    expect(graphql.body.data.run.report.markdown).toContain(notice);
    expect(graphql.body.data.run.report.json.in_progress).toEqual({ scored: 1, total: 3 });
    const envelope = (await (await p.get(p.keys.acmeRead, `${path}/report.json`)).json()) as any;
    expect(envelope.report.in_progress).toEqual({ scored: 1, total: 3 });
    // Imported, it would become a completed run heading the evaluation while this one still runs.
    const before = (await p.store.readAll({ limit: 100_000 })).length;
    const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: evaluationId, e: envelope });
    expect(imported.body.errors[0]).toMatchObject({
      message: "report.in_progress: a running run's report cannot be imported as a completed run; export it once the run has ended",
      extensions: { code: "VALIDATION", field: "envelope.report.in_progress" },
    });
    expect((await p.store.readAll({ limit: 100_000 })).length).toBe(before);
    // Once it has ended, the same export carries no notice.
    for (const key of ["refund", "order_status"]) {
      await p.gql(p.keys.acmeWrite, `mutation ($r: ID!, $k: String!) { recordReplay(runId: $r, scenarioKey: $k, modelLabel: "gpt-5-mini", replay: { answer: "Done." }) { scenarioKey } }`, { r: running, k: key });
    }
    const done = collect<any>(p.wsClient(p.keys.acmeRead), `subscription ($runId: ID!) { runProgress(runId: $runId) { status } }`, { runId: running });
    await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { completeExternalRun(runId: $r) { total } }`, { r: running });
    expect((await done).at(-1).runProgress.status).toBe("COMPLETED");
    const final = (await (await p.get(p.keys.acmeRead, `${path}/report.json`)).json()) as any;
    expect(final.report).not.toHaveProperty("in_progress");
    expect(await (await p.get(p.keys.acmeRead, `${path}/report.md`)).text()).not.toContain("still running");
  });

  it("imports an exported report as a completed run keyed by (tenant, run_id); the same report again is a duplicate", async () => {
    const envelope = (await (await p.get(p.keys.acmeRead, `${base()}/report.json`)).json()) as any;
    envelope.run_id = "imported-1";
    // The importer reads the reference's to_h key `models`; Report#toJSON writes summary_by_model.
    envelope.report.models = envelope.report.summary_by_model;
    const first = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId hostRunId number duplicate } }`, { id: evaluationId, e: envelope });
    expect(first.body.errors).toBeUndefined();
    const imported = first.body.data.importReport;
    expect(imported).toMatchObject({ runId: importedRunId("acme", "imported-1"), hostRunId: "imported-1", duplicate: false });
    const second = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId duplicate number } }`, { id: evaluationId, e: envelope });
    expect(second.body.data.importReport).toEqual({ runId: imported.runId, duplicate: true, number: imported.number });
    const run = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { id origin status } }`, { r: imported.runId });
    expect(run.body.data.run).toEqual({ id: imported.runId, origin: "IMPORTED", status: "COMPLETED" });
    // Its Markdown and HTML are rendered from the imported document (they answered 503 before).
    const importedBase = `/api/evaluations/${evaluationId}/runs/${imported.runId}`;
    const [markdown, original, html] = await Promise.all([p.get(p.keys.acmeRead, `${importedBase}/report.md`), p.get(p.keys.acmeRead, `${base()}/report.md`), p.get(p.keys.acmeRead, `${importedBase}/report`)]);
    expect([markdown.status, html.status]).toEqual([200, 200]);
    expect(await markdown.text()).toBe(await original.text());
    expect(await html.text()).toMatch(/^<!doctype html>[\s\S]*picked by pass rate · gpt-5-mini/i);
    envelope.report.threshold = 0.5;
    const different = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { duplicate } }`, { id: evaluationId, e: envelope });
    expect(different.body.errors[0].extensions.code).toBe("CONFLICT");
    // report.json gives the host's run_id back: exported and imported again, it is the same run.
    const exported = (await (await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${imported.runId}/report.json`)).json()) as any;
    expect(exported.run_id).toBe("imported-1");
    const reimported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId hostRunId duplicate number } }`, { id: evaluationId, e: exported });
    expect(reimported.body.data.importReport).toEqual({ runId: imported.runId, hostRunId: "imported-1", duplicate: true, number: imported.number });
    // Into another evaluation of the same tenant, the same run_id is still a conflict.
    const other = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "SupportAgent", name: "Elsewhere", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
    const elsewhere = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: other.body.data.createEvaluation.evaluationId, e: exported });
    expect(elsewhere.body.errors[0]).toMatchObject({ message: "run imported-1 already exists", extensions: { code: "CONFLICT" } });
  });

  // A document stored before imports checked this answers CONFLICT for its pages (report/rebuildReport.test.ts).
  it("refuses an imported report whose comparison its pages could not render, naming the field and writing nothing", async () => {
    const envelope = {
      version: 1, run_id: "unrenderable-1", source: "ci", agent_name: "SupportAgent", suite: "support",
      report: { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results: [{ scenario_key: "a", label: "gpt-5-mini", status: "passed" }], comparison: { models: 5 } },
    };
    const before = (await p.store.readAll({ limit: 100_000 })).length;
    const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: evaluationId, e: envelope });
    expect(imported.body.errors[0]).toMatchObject({ extensions: { code: "VALIDATION", field: "envelope.report.comparison.models" } });
    expect(imported.body.errors[0].message).toMatch(/^envelope\.report\.comparison\.models: /);
    expect((await p.store.readAll({ limit: 100_000 })).length).toBe(before);
  });

  it("refuses a report with a result lacking its scenario_key, a repeated pair, an unknown status or a score past 1, naming the path and writing nothing", async () => {
    const ok = { scenario_key: "a", label: "m", status: "passed", score: 0.9 };
    const envelope = (run_id: string, results: object[]) => ({
      version: 1, run_id, source: "ci", agent_name: "A", suite: "s", report: { models: { m: { provider: "openai", model: "m" } }, results },
    });
    const mutation = `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`;
    const before = (await p.store.readAll({ limit: 100_000 })).length;
    const cases: [object[], string, string][] = [
      [[{ label: "m", status: "passed", score: 0.9 }], "envelope.report.results[0].scenario_key", "report.results[0].scenario_key is required: the key of the scenario the result is for"],
      [[ok, { ...ok, status: "failed", fault: "low_quality", score: 0.1 }], "envelope.report.results[1].scenario_key", 'report.results[1]: scenario "a" × model "m" repeats report.results[0] (one result per scenario and model)'],
      [[{ ...ok, status: "weird" }], "envelope.report.results[0].status", "report.results[0].status must be one of passed, failed, errored"],
      [[{ ...ok, score: 5 }], "envelope.report.results[0].score", "report.results[0].score must be a number from 0 to 1"],
    ];
    for (const [i, [results, field, message]] of cases.entries()) {
      const answer = await p.gql(p.keys.acmeWrite, mutation, { id: evaluationId, e: envelope(`invalid-${i}`, results) });
      expect(answer.body.errors[0]).toMatchObject({ message, extensions: { code: "VALIDATION", field } });
    }
    expect((await p.store.readAll({ limit: 100_000 })).length).toBe(before);
  });

  it("a second tenant importing a run_id the first used gets its own run: no CONFLICT, nothing of the first's shown or changed", async () => {
    const envelope = (runId: string, threshold: number) => ({
      version: 1, run_id: runId, source: "ci", agent_name: "SupportAgent", suite: "support",
      report: { threshold, models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results: [{ scenario_key: "a", label: "gpt-5-mini", status: "passed" }] },
    });
    const mutation = `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId hostRunId number duplicate } }`;
    const acme = await p.gql(p.keys.acmeWrite, mutation, { id: evaluationId, e: envelope("shared-ci-7", 0.7) });
    expect(acme.body.errors).toBeUndefined();
    const acmeRun = acme.body.data.importReport.runId;
    const acmeEvents = await readWholeStream(p.store, runStream(acmeRun));

    const created = await p.gql(p.keys.globexWrite, `mutation { createEvaluation(input: { agent: "SupportAgent", name: "Support", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
    const globexEvaluation = created.body.data.createEvaluation.evaluationId;
    // Other content under the same run_id: before tenant keying, CONFLICT (so the id was in use).
    const globex = await p.gql(p.keys.globexWrite, mutation, { id: globexEvaluation, e: envelope("shared-ci-7", 0.5) });
    expect(globex.body.errors).toBeUndefined();
    expect(globex.body.data.importReport).toEqual({ runId: importedRunId("globex", "shared-ci-7"), hostRunId: "shared-ci-7", number: 1, duplicate: false });
    const globexRun = globex.body.data.importReport.runId;
    expect(globexRun).not.toBe(acmeRun);

    // Each tenant sees its own run only; the other's answers NOT_FOUND, as a missing one does.
    const query = `query ($r: ID!) { run(id: $r) { id origin status } }`;
    expect((await p.gql(p.keys.acmeRead, query, { r: acmeRun })).body.data.run).toEqual({ id: acmeRun, origin: "IMPORTED", status: "COMPLETED" });
    expect((await p.gql(p.keys.globexWrite, query, { r: globexRun })).body.data.run).toEqual({ id: globexRun, origin: "IMPORTED", status: "COMPLETED" });
    expect((await p.gql(p.keys.acmeRead, query, { r: globexRun })).body.errors[0].extensions.code).toBe("NOT_FOUND");
    expect((await p.gql(p.keys.globexWrite, query, { r: acmeRun })).body.errors[0].extensions.code).toBe("NOT_FOUND");
    const runs = await p.gql(p.keys.globexWrite, `query ($id: ID!) { evaluation(id: $id) { runs { edges { node { id } } } } }`, { id: globexEvaluation });
    expect(runs.body.data.evaluation.runs.edges).toEqual([{ node: { id: globexRun } }]);
    // The first tenant's run is as it was, and its report still holds its own content.
    expect(await readWholeStream(p.store, runStream(acmeRun))).toEqual(acmeEvents);
    // Another tenant's evaluation is named missing, as an unknown one; the tenant's own
    // evaluation with another tenant's run names the run missing: neither says the other exists.
    const crossed = [
      [`/api/evaluations/${globexEvaluation}/runs/${acmeRun}/report.json`, `evaluation ${globexEvaluation} not found`, "id"],
      [`/api/evaluations/${evaluationId}/runs/${globexRun}/report.json`, `run ${globexRun} not found`, "runId"],
    ];
    for (const [path, error, field] of crossed) {
      const answer = await p.get(p.keys.acmeRead, path);
      expect([answer.status, await answer.json()], path).toEqual([404, { error, code: "NOT_FOUND", field }]);
    }
    const acmeJson = (await (await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${acmeRun}/report.json`)).json()) as any;
    expect(acmeJson).toMatchObject({ run_id: "shared-ci-7", report: { threshold: 0.7 } });
    expect((await p.get(p.keys.globexWrite, `/api/evaluations/${evaluationId}/runs/${acmeRun}/report.json`)).status).toBe(404);
  });
});

describe("suite mutations and a judged run's audit trail", () => {
  it("creates from pasted text, merges and replaces scenarios, and answers the suite in order", async () => {
    const created = await p.gql(p.keys.acmeWrite, `mutation ($t: String!) { createEvaluation(input: { agent: "SupportAgent", name: "Orders", scenariosText: $t, compareModels: ["gpt-5-mini"] }) { evaluationId evaluation { scenarioCount } } }`, {
      t: "# Orders\nWhere is order 4821? | tools: lookup_order\nCancel my order | not_contains: password",
    });
    const id = created.body.data.createEvaluation.evaluationId;
    expect(created.body.data.createEvaluation.evaluation.scenarioCount).toBe(2);
    const merged = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $t: String!) { mergeScenarios(evaluationId: $id, scenariosText: $t) { added updated unchanged } }`, { id, t: "# Orders\nChange my address" });
    expect(merged.body.errors).toBeUndefined();
    expect(merged.body.data.mergeScenarios).toEqual({ added: ["orders_3"], updated: [], unchanged: [] });
    const replaced = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $s: JSON!) { replaceScenarios(evaluationId: $id, scenarios: $s, onRemoved: DISABLE) { added updated unchanged disabled removed } }`, {
      id, s: [{ key: "orders_1", prompt: "Where is order 4821?", expected_tools: ["lookup_order"], group: "Orders" }],
    });
    expect(replaced.body.data.replaceScenarios).toMatchObject({ disabled: ["orders_2", "orders_3"], removed: [] });
    const suite = await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { all: scenarios { edges { node { key enabled expectations } } } on: scenarios(enabled: true) { edges { node { key } } } } }`, { id });
    expect(nodes(suite.body.data.evaluation.all).map((s: any) => `${s.key}:${s.enabled}`)).toEqual(["orders_1:true", "orders_2:false", "orders_3:false"]);
    expect(nodes(suite.body.data.evaluation.all)[0].expectations).toEqual({ tools: ["lookup_order"], contains: [], not_contains: [] });
    expect(nodes(suite.body.data.evaluation.on)).toEqual([{ key: "orders_1" }]);
  });

  it("takes back a scenario in the shape it answers, and refuses an unknown key naming it, writing nothing", async () => {
    const suite = "suite: s\ngroups:\n  - key: orders\n    name: Orders\n    scenarios:\n      - key: k1\n        prompt: Where is order 4821?\n        expect: { tools: [lookup_order], contains: [ships] }";
    const created = await p.gql(p.keys.acmeWrite, `mutation ($t: String!) { createEvaluation(input: { agent: "SupportAgent", name: "Round trip", scenariosText: $t }) { evaluationId } }`, { t: suite });
    const id = created.body.data.createEvaluation.evaluationId;
    const read = async () => (await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { scenarios { edges { node { __typename key prompt group groupName notes position enabled expectations } } } } }`, { id })).body.data.evaluation.scenarios.edges.map((edge: any) => edge.node);
    const [scenario] = await read();
    expect(scenario).toMatchObject({ __typename: "Scenario", group: "orders", groupName: "Orders", expectations: { tools: ["lookup_order"], contains: ["ships"], not_contains: [] } });
    const replace = (s: unknown) => p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $s: JSON!) { replaceScenarios(evaluationId: $id, scenarios: $s) { updated unchanged } }`, { id, s });
    // What the API answered goes back unchanged: the expectations were silently erased before.
    const same = await replace([{ ...scenario, prompt: "Where is order 4822?" }]);
    expect(same.body.data.replaceScenarios).toEqual({ updated: [scenario.key], unchanged: [] });
    expect((await read())[0]).toMatchObject({ groupName: "Orders", expectations: scenario.expectations });
    const unknown = await replace([{ key: scenario.key, prompt: "p", groupLabel: "Orders" }]);
    expect(unknown.body.errors[0]).toMatchObject({ extensions: { code: "VALIDATION", field: "scenarios[0]" } });
    expect(unknown.body.errors[0].message).toContain("unknown key groupLabel; a scenario record takes key, prompt,");
    const both = await replace([{ key: scenario.key, prompt: "p", expectations: { tools: [] }, expected_tools: ["x"] }]);
    expect(both.body.errors[0]).toMatchObject({ extensions: { code: "VALIDATION", field: "scenarios[0].expectations" } });
    // A typo inside the expectations is refused in the words every scenario input uses, naming the key meant.
    const typo = await replace([{ key: scenario.key, prompt: "p", expectations: { contain: ["ships"] } }]);
    expect(typo.body.errors[0]).toMatchObject({
      message: "scenarios[0].expectations.contain: unknown key; a scenario's expectations take tools, contains and not_contains (did you mean contains?)",
      extensions: { code: "VALIDATION", field: "scenarios[0].expectations.contain" },
    });
    expect((await read())[0]).toMatchObject({ prompt: "Where is order 4822?", expectations: scenario.expectations });
  });

  it("audits a judged run: every grade with the judge's exchanges, the verdict with its exchange and ranking", async () => {
    const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", name: "support_desk/triage/smoke (judged)", judgeKind: LLM, judgeModel: "scripted-judge", compareModels: ["gpt-5-mini", "claude-sonnet-5"] }) { evaluationId } }`);
    const id = created.body.data.createEvaluation.evaluationId;
    const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id) { runId } }`, { id });
    const judged = started.body.data.startRun.runId;
    await collect(p.wsClient(p.keys.acmeRead), `subscription ($r: ID!) { runProgress(runId: $r) { status } }`, { r: judged });
    const res = await p.gql(p.keys.acmeRead, `query ($r: ID!) {
      runAudit(id: $r) { grades { scenarioKey modelLabel judgeExchanges } verdict { verdict judgeExchange ranking judgeLabel } }
      run(id: $r) { judgeLabel verdict { winner judge } usage { judge { calls cost } } report { verdictMarkdown } }
    }`, { r: judged });
    const { runAudit, run } = res.body.data;
    expect(runAudit.grades).toHaveLength(6);
    for (const grade of runAudit.grades) {
      expect(grade.judgeExchanges[0]).toMatchObject({ kind: "score", raw_answer: '{"score": 0.9}', parsed: { score: 0.9 } });
      expect(grade.judgeExchanges[0].prompt_digest).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(runAudit.verdict.verdict).toMatchObject({ winner: "claude-sonnet-5", rationale: "Friendlier answers.", judge: "scripted-judge" });
    expect(runAudit.verdict.judgeExchange).toMatchObject({ kind: "verdict", usage: { input_tokens: 900, output_tokens: 40 } });
    expect(Object.keys(runAudit.verdict.ranking)).toEqual(["gpt-5-mini", "claude-sonnet-5"]);
    expect(run).toMatchObject({ judgeLabel: "scripted-judge", verdict: { winner: "claude-sonnet-5", judge: "scripted-judge" } });
    expect(run.usage.judge.calls).toBeGreaterThanOrEqual(7);
    expect(run.report.verdictMarkdown).toContain("claude-sonnet-5");
  });
});

describe("malformed requests", () => {
  it("answers a path that does not decode, an unsupported charset and an unknown /api route with a 4xx naming the problem", async () => {
    const undecodable = await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/%ff/report.md`);
    expect(undecodable.status).toBe(400);
    expect(await undecodable.json()).toEqual({ error: "Failed to decode param '%ff'", code: "VALIDATION" });
    const charset = await fetch(p.api.graphqlUrl, {
      method: "POST",
      headers: { "content-type": "application/json; charset=klingon", authorization: `Bearer ${p.keys.acmeRead}` },
      body: JSON.stringify({ query: "{ catalogs { totalCount } }" }),
    });
    expect(charset.status).toBe(415);
    expect(await charset.json()).toEqual({ errors: [{ message: 'unsupported charset "KLINGON"', extensions: { code: "VALIDATION" } }] });
    const unknown = await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${runId}/summary`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any)).toMatchObject({ code: "NOT_FOUND", error: expect.stringContaining(`no route GET /api/evaluations/${evaluationId}/runs/${runId}/summary`) });
  });

  it("answers Apollo's own refusals with its code BAD_REQUEST: a simple request its CSRF prevention blocks (400), a mutation over GET (405)", async () => {
    const simple = await fetch(p.api.graphqlUrl, { method: "POST", headers: { "content-type": "text/plain", authorization: `Bearer ${p.keys.acmeRead}` }, body: JSON.stringify({ query: "{ catalogs { totalCount } }" }) });
    expect(simple.status).toBe(400);
    expect(((await simple.json()) as any).errors[0]).toMatchObject({ message: expect.stringMatching(/^This operation has been blocked as a potential Cross-Site Request Forgery/), extensions: { code: "BAD_REQUEST" } });
    const mutation = await fetch(`${p.api.graphqlUrl}?query=${encodeURIComponent('mutation { importCatalog(yaml: "x") { key } }')}`, { headers: { "apollo-require-preflight": "true", authorization: `Bearer ${p.keys.acmeWrite}` } });
    expect(mutation.status).toBe(405);
    expect(((await mutation.json()) as any).errors[0]).toMatchObject({ message: "GET requests only support query operations, not mutation operations", extensions: { code: "BAD_REQUEST" } });
  });

  it("names every REST route in an unknown /api path's 404, the handle route's too, and how a run_id holding \"/\" is written", async () => {
    // It named only the evaluation routes and /api/usage: a host holding `gh/1234/1` and asking
    // /api/evaluation_reports/gh/1234/1 learned nothing of the route it meant.
    const unknown = await p.get(p.keys.acmeRead, "/api/evaluation_reports/gh/1234/1");
    expect([unknown.status, await unknown.json()]).toEqual([404, {
      error: 'no route GET /api/evaluation_reports/gh/1234/1; GraphQL is at /graphql, reports are under /api/evaluations/:id/runs/:runId/report[.md|.json] and /api/evaluation_reports/:run_id (a run_id holding "/" URL-encoded: gh%2F1234%2F1), the plan\'s meters at /api/usage, liveness at /healthz and readiness at /readyz (no API key)',
      code: "NOT_FOUND",
    }]);
  });
});

describe("query parameters a REST route does not take", () => {
  it("are refused, 400 VALIDATION naming the parameter and the route's own, while every parameter a route takes still works", async () => {
    // `?them=dark` (a typo) answered 200 as if nothing had been asked, while `?theme=bogus` was refused.
    const refused = [
      [`${base()}/report?them=dark`, "them", "only theme, download"],
      [`${base()}/report.json?theme=dark`, "theme", "only download"],
      [`${base()}/report.md?bogus=1`, "bogus", "only part, model, scenario, key, download"],
      [`${base()}/report.md?theme=dark`, "theme", "only part, model, scenario, key, download"],
      [`/api/evaluation_reports/${runId}?part=verdict`, "part", "only download"],
      [`/api/usage?months=2026-01`, "months", "only month"],
    ];
    for (const [path, name, takes] of refused) {
      const answer = await p.get(p.keys.acmeRead, path);
      expect([answer.status, await answer.json()], path).toEqual([400, { error: `unknown query parameter "${name}": this route takes ${takes}`, code: "VALIDATION", field: name }]);
    }
    const taken = [
      `${base()}/report?theme=dark&download=0`,
      `${base()}/report.md?part=fix_items&model=claude-sonnet-5&download=1`,
      `${base()}/report.md?part=scenario&key=refund`,
      `${base()}/report.md?part=scenario&scenario=refund`,
      `${base()}/report.md?model=gpt-5-mini`,
      `${base()}/report.json?download=1`,
      `/api/evaluation_reports/${runId}?download=0`,
      `/api/usage?month=2026-01`,
    ];
    for (const path of taken) expect((await p.get(p.keys.acmeRead, path)).status, path).toBe(200);
  });
});

describe("deeply nested JSON", () => {
  it("is refused with VALIDATION naming where, over HTTP and graphql-ws, instead of overflowing the stack", async () => {
    const nested = (n: number) => `${"[".repeat(n)}"x"${"]".repeat(n)}`;
    const body = `{"query": "mutation ($s: JSON) { createEvaluation(input: { agent: \\"A\\", name: \\"N\\", scenarios: $s }) { evaluationId } }", "variables": { "s": ${nested(5000)} } }`;
    const res = await fetch(p.api.graphqlUrl, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${p.keys.acmeWrite}` }, body });
    expect(res.status).toBe(400);
    const error = ((await res.json()) as any).errors[0];
    expect(error.extensions).toMatchObject({ code: "VALIDATION", field: expect.stringMatching(/^variables\.s(\[0\])+$/) });
    expect(error.message).toMatch(/JSON is nested more than 64 levels deep/);
    const ws = await rawWsSession(p.api.wsUrl, p.keys.acmeWrite, [`{"id": "1", "type": "subscribe", "payload": ${body}}`], (frames) => frames.some((f) => f.id === "1"));
    expect(ws.frames.find((f) => f.id === "1")).toMatchObject({ type: "error", payload: [{ extensions: { code: "VALIDATION" } }] });
    // What real input nests to passes.
    const fine = await p.gql(p.keys.acmeWrite, `mutation ($s: JSON) { createEvaluation(input: { agent: "A", name: "N", scenarios: $s }) { evaluationId } }`, { s: [{ key: "a", prompt: "Where is my order?" }] });
    expect(fine.body.errors).toBeUndefined();
  });
});
