// Text PostgreSQL cannot store (NUL, unpaired surrogates) is refused at the edge with the field
// named, and writes nothing: appended, such an event stalled the projector, and every mutation
// after it (anyone's) answered "internal error" once its read-your-writes wait ran out.
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "graphql";
import { textProblem } from "./server/inputText.js";
import { collect, startPlatform, type Platform } from "./testing/harness.js";

describe("textProblem", () => {
  it("names the argument, through variables, lists, objects and JSON keys", () => {
    const doc = parse(`mutation ($i: CreateEvaluationInput!, $s: JSON) { createEvaluation(input: $i) { evaluationId } m: mergeScenarios(evaluationId: "e", scenarios: $s) { added } }`);
    expect(textProblem(doc, { i: { name: "a\u0000b" } })?.message).toBe("createEvaluation.input.name ($i): must not contain a NUL character (\\u0000) or an unpaired surrogate");
    expect(textProblem(doc, { i: { name: "ok" }, s: [{ key: "k", prompt: "\ud800" }] })?.extensions).toMatchObject({ code: "VALIDATION", field: "m.scenarios[0].prompt ($s)" });
    expect(textProblem(doc, { s: [{ ["k\u0000"]: 1 }] })?.extensions.field).toBe("m.scenarios[0] (a key) ($s)");
    expect(textProblem(parse(`{ run(id: "a\\u0000") { id } }`), {})?.extensions.field).toBe("run.id");
    expect(textProblem(parse(`query ($n: ID = "\\u0000") { run(id: $n) { id } }`), {})?.extensions.field).toBe("$n");
  });

  it("leaves recordReplay's replay to the domain, which records such text as U+FFFD, and checks its other arguments", () => {
    const doc = parse(`mutation ($r: ID!, $p: JSON!) { recordReplay(runId: $r, scenarioKey: "k", modelLabel: "m", replay: $p) { runId } }`);
    expect(textProblem(doc, { r: "run-1", p: { answer: "a\u0000 \ud800" } })).toBeNull();
    expect(textProblem(parse(`{ recordReplay(runId: "r", scenarioKey: "k", modelLabel: "m", replay: { answer: "a\\u0000" }) { runId } }`), {})).toBeNull();
    expect(textProblem(doc, { r: "run\u0000", p: {} })?.extensions.field).toBe("recordReplay.runId ($r)");
    // The same variable in an argument that is checked is still refused there.
    const both = parse(`mutation ($p: JSON!) { recordReplay(runId: "r", scenarioKey: "k", modelLabel: "m", replay: $p) { runId } mergeScenarios(evaluationId: "e", scenarios: $p) { added } }`);
    expect(textProblem(both, { p: { answer: "a\u0000" } })?.extensions.field).toBe("mergeScenarios.scenarios.answer ($p)");
  });

  it("passes well-formed text, paired surrogates (emoji) included", () => {
    const doc = parse(`query ($id: ID!) { run(id: $id) { id } }`);
    expect(textProblem(doc, { id: "Où est ma commande 😀 ?" })).toBeNull();
    expect(textProblem(parse(`{ run(id: "😀") { id } }`), null)).toBeNull();
  });
});

describe("NUL and unpaired surrogates over the API", () => {
  let p: Platform;
  beforeAll(async () => {
    p = await startPlatform();
    return () => p.close();
  }, 60_000);

  it("refuses them in a mutation with VALIDATION, appends nothing, and the next mutation still reads back", async () => {
    const create = `mutation ($n: String) { createEvaluation(input: { agent: "A", name: $n, scenariosText: "hello there" }) { evaluationId evaluation { name } } }`;
    for (const name of ["a\u0000b", "a\ud800b"]) {
      const res = await p.gql(p.keys.acmeWrite, create, { n: name });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions).toEqual({ code: "VALIDATION", field: "createEvaluation.input.name ($n)" });
    }
    expect(await p.store.readAll({ limit: 100 })).toEqual([]);
    const ok = await p.gql(p.keys.acmeWrite, create, { n: "Orders 😀" });
    expect(ok.body.data.createEvaluation.evaluation.name).toBe("Orders 😀");
  });

  it("refuses them in ids and keys of queries and subscriptions instead of an internal error", async () => {
    for (const query of [`query ($v: ID!) { run(id: $v) { id } }`, `query ($v: ID!) { evaluation(id: $v) { id } }`, `query ($v: String!) { catalog(key: $v) { key } }`]) {
      const res = await p.gql(p.keys.acmeRead, query, { v: "x\u0000" });
      expect(res.body.errors[0].extensions.code).toBe("VALIDATION");
    }
    const ws = collect(p.wsClient(p.keys.acmeRead), `subscription ($r: ID!) { runProgress(runId: $r) { status } }`, { r: "x\u0000" });
    await expect(ws).rejects.toMatchObject({ errors: [{ message: expect.stringMatching(/^runProgress\.runId \(\$r\): must not contain a NUL/) }] });
  });
});
