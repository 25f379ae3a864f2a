// Text PostgreSQL cannot store (NUL, unpaired surrogates) is refused at the edge with the field
// named, and writes nothing: appended, such an event stalled the projector, and every mutation
// after it (anyone's) answered "internal error" once its read-your-writes wait ran out.
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "graphql";
import { inputProblem } from "./server/inputText.js";
import { collect, startPlatform, type Platform } from "./testing/harness.js";

describe("inputProblem", () => {
  it("names the argument, through variables, lists, objects and JSON keys", () => {
    const doc = parse(`mutation ($i: CreateEvaluationInput!, $s: JSON) { createEvaluation(input: $i) { evaluationId } m: mergeScenarios(evaluationId: "e", scenarios: $s) { added } }`);
    expect(inputProblem(doc, { i: { name: "a\u0000b" } })?.message).toBe("createEvaluation.input.name ($i): must not contain a NUL character (\\u0000) or an unpaired surrogate");
    expect(inputProblem(doc, { i: { name: "ok" }, s: [{ key: "k", prompt: "\ud800" }] })?.extensions).toMatchObject({ code: "VALIDATION", field: "m.scenarios[0].prompt ($s)" });
    expect(inputProblem(doc, { s: [{ ["k\u0000"]: 1 }] })?.extensions.field).toBe("m.scenarios[0] (a key) ($s)");
    expect(inputProblem(parse(`{ run(id: "a\\u0000") { id } }`), {})?.extensions.field).toBe("run.id");
    expect(inputProblem(parse(`query ($n: ID = "\\u0000") { run(id: $n) { id } }`), {})?.extensions.field).toBe("$n");
  });

  it("leaves recordReplay's replay to the domain, which records such text as U+FFFD, and checks its other arguments", () => {
    const doc = parse(`mutation ($r: ID!, $p: JSON!) { recordReplay(runId: $r, scenarioKey: "k", modelLabel: "m", replay: $p) { runId } }`);
    expect(inputProblem(doc, { r: "run-1", p: { answer: "a\u0000 \ud800" } })).toBeNull();
    expect(inputProblem(parse(`{ recordReplay(runId: "r", scenarioKey: "k", modelLabel: "m", replay: { answer: "a\\u0000" }) { runId } }`), {})).toBeNull();
    expect(inputProblem(doc, { r: "run\u0000", p: {} })?.extensions.field).toBe("recordReplay.runId ($r)");
    // The same variable in an argument that is checked is still refused there.
    const both = parse(`mutation ($p: JSON!) { recordReplay(runId: "r", scenarioKey: "k", modelLabel: "m", replay: $p) { runId } mergeScenarios(evaluationId: "e", scenarios: $p) { added } }`);
    expect(inputProblem(both, { p: { answer: "a\u0000" } })?.extensions.field).toBe("mergeScenarios.scenarios.answer ($p)");
  });

  it("names an integer past ±2^53-1 in a JSON literal or variable, which would arrive rounded", () => {
    const merge = parse(`mutation ($s: JSON) { mergeScenarios(evaluationId: "e", scenarios: $s) { added } }`);
    // JSON.parse has already rounded 1234567890123456789 to this by the time the API sees it.
    expect(inputProblem(merge, { s: [{ key: "k", params: { ids: [1, 1234567890123456800] } }] })?.message).toBe(
      `mergeScenarios.scenarios[0].params.ids[1] ($s): is an integer beyond ±9007199254740991, past which numbers are not exact, so it would not be kept as sent; inside a JSON value, send it as a string`,
    );
    expect(inputProblem(merge, { s: [{ params: { n: -(2 ** 60) } }] })?.extensions.field).toBe("mergeScenarios.scenarios[0].params.n ($s)");
    const literal = parse(`mutation { mergeScenarios(evaluationId: "e", scenarios: [{ key: "k", params: { user_id: 1234567890123456789 } }]) { added } }`);
    expect(inputProblem(literal, {})?.extensions).toMatchObject({ code: "VALIDATION", field: "mergeScenarios.scenarios[0].params.user_id" });
    // The largest exact integers, fractions and big floats written as such pass; text wins when both break.
    expect(inputProblem(merge, { s: [{ params: { a: 9007199254740991, b: -9007199254740991, c: 0.5 } }] })).toBeNull();
    expect(inputProblem(parse(`mutation { mergeScenarios(evaluationId: "e", scenarios: [{ params: { a: 9007199254740991, f: 1.5e300 } }]) { added } }`), {})).toBeNull();
    expect(inputProblem(merge, { s: [{ key: "k\u0000", params: { n: 2 ** 60 } }] })?.message).toMatch(/: must not contain a NUL/);
  });

  it("leaves such integers in what agents and hosts report (64-bit ids in tool results, trace ids) as they were parsed", () => {
    const replay = { answer: "Shipped.", tool_calls: [{ name: "find_order", result: { id: 1234567890123456800 } }], metadata: { trace_id: 2 ** 63 } };
    const record = parse(`mutation ($r: JSON!) { recordReplay(runId: "r", scenarioKey: "k", modelLabel: "m", replay: $r) { runId } }`);
    expect(inputProblem(record, { r: replay })).toBeNull();
    const imported = parse(`mutation ($e: JSON!) { importReport(evaluationId: "e", envelope: $e) { runId } }`);
    expect(inputProblem(imported, { e: { report: { results: [{ replay }] } } })).toBeNull();
    // The same value in an argument that is checked is still refused there.
    const both = parse(`mutation ($r: JSON!) { recordReplay(runId: "r", scenarioKey: "k", modelLabel: "m", replay: $r) { runId } mergeScenarios(evaluationId: "e", scenarios: $r) { added } }`);
    expect(inputProblem(both, { r: replay })?.extensions.field).toBe("mergeScenarios.scenarios.tool_calls[0].result.id ($r)");
  });

  it("passes well-formed text, paired surrogates (emoji) included", () => {
    const doc = parse(`query ($id: ID!) { run(id: $id) { id } }`);
    expect(inputProblem(doc, { id: "Où est ma commande 😀 ?" })).toBeNull();
    expect(inputProblem(parse(`{ run(id: "😀") { id } }`), null)).toBeNull();
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

  it("refuses an integer past ±2^53-1 sent in a request body, and writes nothing", async () => {
    const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "Ints", name: "ints", scenariosText: "hello there" }) { evaluationId } }`);
    const evaluationId = created.body.data.createEvaluation.evaluationId as string;
    const before = (await p.store.readAll({ limit: 1000 })).length;
    const query = `mutation ($id: ID!, $s: JSON) { mergeScenarios(evaluationId: $id, scenarios: $s) { added } }`;
    // Written by hand: JSON.stringify cannot write the integer as a client in another language would.
    const body = `{"query":${JSON.stringify(query)},"variables":{"id":${JSON.stringify(evaluationId)},"s":[{"key":"big","prompt":"Where is order 1?","params":{"user_id":1234567890123456789}}]}}`;
    const res = await fetch(p.api.graphqlUrl, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${p.keys.acmeWrite}` }, body });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: Array<{ extensions: unknown }> }).errors[0].extensions).toEqual({ code: "VALIDATION", field: "mergeScenarios.scenarios[0].params.user_id ($s)" });
    expect(await p.store.readAll({ limit: 1000 })).toHaveLength(before);
    // As a string it is kept exactly.
    const kept = await p.gql(p.keys.acmeWrite, query, { id: evaluationId, s: [{ key: "big", prompt: "Where is order 1?", params: { user_id: "1234567890123456789" } }] });
    expect(kept.body.data.mergeScenarios.added).toEqual(["big"]);
    const read = await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { scenarios { edges { node { key params } } } } }`, { id: evaluationId });
    const edges = read.body.data.evaluation.scenarios.edges as Array<{ node: { key: string; params: unknown } }>;
    expect(edges.find((edge) => edge.node.key === "big")?.node.params).toEqual({ user_id: "1234567890123456789" });
  });
});
