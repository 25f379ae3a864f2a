// Inputs that used to be accepted and then failed later, far from where they were given (an
// `internal error`, a refusal naming a field the caller never sent, a silently different run):
// each is refused where it is given, with VALIDATION naming the field and the rule, and nothing
// is appended.
import { beforeAll, describe, expect, it } from "vitest";
import { startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;

beforeAll(async () => {
  p = await startPlatform();
  return () => p.close();
}, 60_000);

/** Sends `query` and expects one VALIDATION error with `message`, the event log left as it was. */
async function refused(query: string, variables: Record<string, unknown>, message: string | RegExp): Promise<{ message: string; extensions: Record<string, unknown> }> {
  const before = (await p.store.readAll({ limit: 10_000 })).length;
  const res = await p.gql(p.keys.acmeWrite, query, variables);
  expect(res.body.errors?.[0]?.extensions?.code, JSON.stringify(res.body)).toBe("VALIDATION");
  if (typeof message === "string") expect(res.body.errors[0].message).toBe(message);
  else expect(res.body.errors[0].message).toMatch(message);
  expect((await p.store.readAll({ limit: 10_000 })).length).toBe(before);
  return res.body.errors[0];
}

const IMPORT = `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`;

describe("importCatalog", () => {
  it("refuses a recursive alias with its line instead of an internal error", async () => {
    await refused(IMPORT, { yaml: "catalog: c8\na: &a [*a]" }, "line 2: the catalog is not valid YAML: alias *a is inside the node its anchor &a names, so the value would contain itself");
  });

  it("refuses a set whose judge no evaluation could take, naming the catalog path (createEvaluation refused it later, naming judge.kind)", async () => {
    const yaml = "catalog: c4\nproducts:\n  - key: p\n    sets:\n      - key: s\n        judge: {kind: weird}\n        scenarios:\n          - key: a\n            prompt: hi";
    await refused(IMPORT, { yaml }, "products[0].sets[0].judge.kind: must be rules, llm or judge_defined");
    const created = await p.gql(p.keys.acmeWrite, CREATE, { input: { fromCatalogSet: "c4/p/s", agent: "A" } });
    expect(created.body.errors[0].extensions.code).toBe("NOT_FOUND");
  });
});

const CREATE = `mutation ($input: CreateEvaluationInput!) { createEvaluation(input: $input) { evaluationId } }`;

describe("createEvaluation: criteria", () => {
  it("refuses a criterion keyed as a built-in score, and a repeated key, naming the criterion", async () => {
    const input = (criteria: unknown[]) => ({ input: { agent: "A", name: `criteria-${Math.random()}`, scenariosText: "hello", criteria } });
    const reserved = await refused(CREATE, input([{ key: "task_completion", type: "max_latency_ms", config: { ms: 10 } }]), 'criteria[0].key: "task_completion" is reserved for the built-in score of the same name');
    expect(reserved.extensions.field).toBe("criteria[0].key");
    const repeated = await refused(CREATE, input([{ key: "a", type: "response_present" }, { key: "a", type: "min_length" }]), 'criteria[1].key: repeats "a" (first at criteria[0].key)');
    expect(repeated.extensions.field).toBe("criteria[1].key");
  });

  it("refuses them in a catalog set at import, naming the catalog path", async () => {
    const yaml = "catalog: crit\nproducts:\n  - key: p\n    sets:\n      - key: s\n        criteria: [{ key: expected_tools, type: min_length }]\n        scenarios: [{ key: a, prompt: hi }]";
    await refused(IMPORT, { yaml }, 'products[0].sets[0].criteria[0].key: "expected_tools" is reserved for the built-in score of the same name');
  });
});

describe("createEvaluation: compareModels", () => {
  const CREATED = `mutation ($input: CreateEvaluationInput!) { createEvaluation(input: $input) { evaluationId evaluation { compareModels } } }`;

  it("refuses a blank model, naming its place (startRun then said no compare models were set)", async () => {
    for (const blank of ["", "  "]) {
      const error = await refused(CREATE, { input: { agent: "A", name: `blank-${blank.length}`, scenariosText: "hello", compareModels: ["gpt-5", blank] } }, "compareModels[1]: must not be blank");
      expect(error.extensions.field).toBe("compareModels[1]");
    }
  });

  it("keeps a model named twice once, as a run's selection.models does", async () => {
    const res = await p.gql(p.keys.acmeWrite, CREATED, { input: { agent: "A", name: "twice", scenariosText: "hello", compareModels: ["gpt-5", "claude-sonnet-5", "gpt-5"] } });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createEvaluation.evaluation.compareModels).toEqual(["gpt-5", "claude-sonnet-5"]);
  });
});
