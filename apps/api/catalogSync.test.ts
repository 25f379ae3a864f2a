// Catalog re-materialization over GraphQL (reference-platform feature 34, §3 rule 10, §7
// behaviour 14): a re-import syncs every evaluation made from the catalog's sets — a dropped
// scenario disabled (kept, its results readable), a changed prompt updated — the next run
// replays only what is enabled, as now worded, and the runs before it read back unchanged.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG_YAML, collect, startPlatform, type Platform } from "./testing/harness.js";
import { nodes } from "./testing/nodes.js";

let p: Platform;

async function ok<T = any>(key: string, query: string, variables?: Record<string, unknown>): Promise<T> {
  const { status, body } = await p.gql<T>(key, query, variables);
  if (body.errors) throw new Error(`${status}: ${JSON.stringify(body.errors)}`);
  return body.data as T;
}

const IMPORT = `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key digest changed scenarioCount syncedEvaluations } }`;
const CREATE = `mutation { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", compareModels: ["gpt-5-mini"] }) { evaluationId evaluation { scenarioCount } } }`;
const SCENARIOS = `query ($id: ID!) { evaluation(id: $id) { scenarioCount catalog scenarios { edges { node { key prompt enabled } } } } }`;
/** The sample catalog with `refund` dropped and `greeting` reworded. */
const CHANGED_YAML = CATALOG_YAML.replace("prompt: Hello there", "prompt: Hello there, again").replace(/\n\s+- key: refund[\s\S]*$/, "\n");

async function run(key: string, evaluationId: string): Promise<string> {
  const started = await ok(key, `mutation ($id: ID!) { startRun(evaluationId: $id) { runId } }`, { id: evaluationId });
  const runId: string = started.startRun.runId;
  const keyRead = key === p.keys.acmeWrite ? p.keys.acmeRead : key;
  await collect(p.wsClient(keyRead), `subscription ($runId: ID!) { runProgress(runId: $runId) { status } }`, { runId });
  return runId;
}

async function reports(evaluationId: string, runId: string): Promise<string[]> {
  const base = `/api/evaluations/${evaluationId}/runs/${runId}/report`;
  return Promise.all([base, `${base}.md`, `${base}.json`].map(async (path) => {
    const res = await p.get(p.keys.acmeRead, path);
    expect(res.status, path).toBe(200);
    return res.text();
  }));
}

async function streamLengths(): Promise<number> {
  return (await p.store.readAll({ limit: 100_000 })).length;
}

beforeAll(async () => {
  p = await startPlatform();
}, 60_000);

afterAll(async () => {
  await p?.close();
});

describe("re-importing a catalog syncs the evaluations made from its sets", () => {
  let evaluationId: string;
  let firstRun: string;
  let firstReports: string[];
  let globexEvaluation: string;

  it("disables a dropped scenario (kept), updates a changed prompt, and says which evaluations it synced", async () => {
    await ok(p.keys.acmeWrite, IMPORT, { yaml: CATALOG_YAML });
    evaluationId = (await ok(p.keys.acmeWrite, CREATE)).createEvaluation.evaluationId;
    // Another tenant with the same catalog and set: never touched by acme's import.
    await ok(p.keys.globexWrite, IMPORT, { yaml: CATALOG_YAML });
    globexEvaluation = (await ok(p.keys.globexWrite, CREATE)).createEvaluation.evaluationId;
    firstRun = await run(p.keys.acmeWrite, evaluationId);
    firstReports = await reports(evaluationId, firstRun);

    const imported = await ok(p.keys.acmeWrite, IMPORT, { yaml: CHANGED_YAML });
    expect(imported.importCatalog).toMatchObject({ changed: true, scenarioCount: 2, syncedEvaluations: [evaluationId] });
    const { evaluation } = await ok(p.keys.acmeRead, SCENARIOS, { id: evaluationId });
    expect(nodes(evaluation.scenarios)).toEqual([
      { key: "order_status", prompt: "Where is order 4821?", enabled: true },
      { key: "greeting", prompt: "Hello there, again", enabled: true },
      { key: "refund", prompt: "Refund my order", enabled: false },
    ]);
    expect(evaluation.scenarioCount).toBe(2);
    expect(evaluation.catalog.digest).toBe(imported.importCatalog.digest);
  });

  it("runs only the enabled scenarios, as now worded, and leaves the earlier run's reports byte-identical", async () => {
    const secondRun = await run(p.keys.acmeWrite, evaluationId);
    const { run: second } = await ok(p.keys.acmeRead, `query ($id: ID!) { run(id: $id) { status selection results { edges { node { scenarioKey scenario } } } } }`, { id: secondRun });
    expect(second.status).toBe("COMPLETED");
    const evaluated = nodes(second.results).map((r: any) => [r.scenarioKey, r.scenario.prompt]);
    expect(evaluated).toEqual([["order_status", "Where is order 4821?"], ["greeting", "Hello there, again"]]);
    expect(await reports(evaluationId, firstRun)).toEqual(firstReports);
  });

  it("createEvaluation from the set again answers the synced evaluation instead of CONFLICT", async () => {
    const again = await ok(p.keys.acmeWrite, CREATE);
    expect(again.createEvaluation).toEqual({ evaluationId, evaluation: { scenarioCount: 2 } });
  });

  it("appends nothing when the same document is imported again", async () => {
    const before = await streamLengths();
    const imported = await ok(p.keys.acmeWrite, IMPORT, { yaml: CHANGED_YAML });
    expect(imported.importCatalog).toMatchObject({ changed: false, syncedEvaluations: [] });
    expect(await ok(p.keys.acmeWrite, CREATE)).toMatchObject({ createEvaluation: { evaluationId } });
    expect(await streamLengths()).toBe(before);
  });

  // A scenario the catalog dropped comes back, with its new content, enabled again: the sync had
  // disabled it, so it undoes its own disabling (a user's own disabling is never undone by a sync).
  it("enables a scenario the catalog names again, taking its content", async () => {
    const again = CATALOG_YAML.replace("prompt: Refund my order", "prompt: Refund my order, please");
    await ok(p.keys.acmeWrite, IMPORT, { yaml: again });
    const { evaluation } = await ok(p.keys.acmeRead, SCENARIOS, { id: evaluationId });
    expect(nodes(evaluation.scenarios).map((s: any) => [s.key, s.prompt, s.enabled])).toEqual([
      ["order_status", "Where is order 4821?", true],
      ["greeting", "Hello there", true],
      ["refund", "Refund my order, please", true],
    ]);
  });

  it("leaves another tenant's same-named catalog and evaluation untouched", async () => {
    const { evaluation } = await ok(p.keys.globexWrite, SCENARIOS, { id: globexEvaluation });
    expect(nodes(evaluation.scenarios).every((s: any) => s.enabled)).toBe(true);
    const events = await p.store.readStream(`evaluation-${globexEvaluation}`);
    expect(events.map((e) => e.type)).toEqual(["EvaluationCreated", "ScenariosReplaced"]);
    const catalog = await p.store.readStream("catalog-globex.support_desk");
    expect(catalog.map((e) => e.type)).toEqual(["CatalogImported", "CatalogSetMaterialized"]);
  });
});

// A repeated createEvaluation(fromCatalogSet) syncs the evaluation it made: the judge and
// criteria its creation named stay pinned (a call naming neither once gave it the set's), and
// naming others is CONFLICT, as a different threshold or compareModels is.
describe("createEvaluation from a set again keeps the judge and criteria the evaluation was created with", () => {
  const shop = (judge: string) => `
catalog: shop2
name: Shop
products:
  - key: p
    name: P
    agent: ShopAgent
    sets:
      - key: s
        name: S
        judge: { model: ${judge} }
        scenarios:
          - key: hello
            prompt: Hello
`;
  const CREATE_FROM = `mutation ($input: CreateEvaluationInput!) { createEvaluation(input: $input) { evaluationId evaluation { judge criteria } } }`;
  const PINNED = { fromCatalogSet: "shop2/p/s", judgeModel: "mine", criteria: [{ key: "rp", type: "response_present" }] };
  const pinned = { judge: { kind: "llm", model: "mine" }, criteria: [{ key: "rp", type: "response_present", config: {} }] };
  let evaluationId: string;

  it("answers the evaluation with its own judge and criteria, at the call and after later imports", async () => {
    await ok(p.keys.acmeWrite, IMPORT, { yaml: shop("set-judge") });
    const created = (await ok(p.keys.acmeWrite, CREATE_FROM, { input: PINNED })).createEvaluation;
    evaluationId = created.evaluationId;
    expect(created.evaluation).toEqual(pinned);

    const again = (await ok(p.keys.acmeWrite, CREATE_FROM, { input: { fromCatalogSet: "shop2/p/s" } })).createEvaluation;
    expect(again).toEqual({ evaluationId, evaluation: pinned });
    await ok(p.keys.acmeWrite, IMPORT, { yaml: shop("set-judge-2") });
    const { evaluation } = await ok(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { judge criteria } }`, { id: evaluationId });
    expect(evaluation).toEqual(pinned);
  });

  it("answers the same evaluation when the call names its own judge and criteria again", async () => {
    expect((await ok(p.keys.acmeWrite, CREATE_FROM, { input: PINNED })).createEvaluation).toEqual({ evaluationId, evaluation: pinned });
  });

  it("refuses another judge or other criteria as CONFLICT naming the field, changing nothing", async () => {
    const before = await streamLengths();
    const cases: [Record<string, unknown>, string][] = [
      [{ judgeModel: "other" }, "input.judgeModel"],
      [{ judgeKind: "RULES" }, "input.judgeKind"],
      [{ criteria: [{ key: "rp2", type: "response_present" }] }, "input.criteria"],
    ];
    for (const [named, field] of cases) {
      const { body } = await p.gql(p.keys.acmeWrite, CREATE_FROM, { input: { fromCatalogSet: "shop2/p/s", ...named } });
      expect(body.errors?.[0], field).toMatchObject({ extensions: { code: "CONFLICT", field } });
    }
    expect(await streamLengths()).toBe(before);
  });

  it("keeps an evaluation that named no judge following the set's", async () => {
    const CATALOG = { fromCatalogSet: "shop2/p/s", name: "follows the set" };
    const first = (await ok(p.keys.acmeWrite, CREATE_FROM, { input: CATALOG })).createEvaluation;
    expect(first.evaluation.judge).toEqual({ kind: "llm", model: "set-judge-2" });
    expect((await ok(p.keys.acmeWrite, CREATE_FROM, { input: CATALOG })).createEvaluation.evaluationId).toBe(first.evaluationId);
    await ok(p.keys.acmeWrite, IMPORT, { yaml: shop("set-judge-3") });
    const { evaluation } = await ok(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { judge } }`, { id: first.evaluationId });
    expect(evaluation.judge).toEqual({ kind: "llm", model: "set-judge-3" });
  });
});
