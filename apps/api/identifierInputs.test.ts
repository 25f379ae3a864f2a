// Scenario keys, model labels, groups and tool names a reader cannot tell from another (domain
// support/identifierText) are refused at the GraphQL mutations too: VALIDATION naming the field,
// the character by code point and where it is, and nothing appended.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;

beforeAll(async () => {
  p = await startPlatform();
  return () => p.close();
}, 60_000);

const CREATE = `mutation ($input: CreateEvaluationInput!) { createEvaluation(input: $input) { evaluationId } }`;
const RULE = "control, bidi and invisible characters are refused in keys, labels and tool names";

/** Sends `query` and expects one VALIDATION error, the event log left as it was. */
async function refused(query: string, variables: Record<string, unknown>): Promise<{ message: string; field: unknown }> {
  const before = (await p.store.readAll({ limit: 10_000 })).length;
  const res = await p.gql(p.keys.acmeWrite, query, variables);
  expect(res.body.errors?.[0]?.extensions?.code, JSON.stringify(res.body)).toBe("VALIDATION");
  expect((await p.store.readAll({ limit: 10_000 })).length).toBe(before);
  return { message: res.body.errors[0].message, field: res.body.errors[0].extensions.field };
}

describe("createEvaluation", () => {
  it("refuses compareModels holding a right-to-left override or two names that read alike", async () => {
    const rlo = await refused(CREATE, { input: { agent: "A", name: "N", compareModels: ["gpt-5-mini", "\u30e2\u30c7\u30eb\u202e"] } });
    expect(rlo.message).toContain(`must not contain U+202E RIGHT-TO-LEFT OVERRIDE (at character 4): ${RULE}`);
    expect(rlo.field).toBe("input.compareModels[1]");
    const alike = await refused(CREATE, { input: { agent: "A", name: "N", compareModels: ["gpt-5-mini", "g\u0440t-5-mini"] } });
    expect(alike.message).toContain('models "gpt-5-mini" and "g\u0440t-5-mini" read alike (character 2 is U+0070 in one and U+0440 in the other): rename one');
  });

  it("refuses a pasted scenario key with a zero-width space, with its line, and JSON keys that read alike", async () => {
    const pasted = await refused(CREATE, { input: { agent: "A", name: "N", scenariosText: "Where is my order? | key: a\u200bb" } });
    expect(pasted.message).toBe(`line 1: key: must not contain U+200B ZERO WIDTH SPACE (at character 2): ${RULE}`);
    expect(pasted.field).toBe("input.scenariosText");
    const listed = await refused(CREATE, { input: { agent: "A", name: "N", scenarios: [{ key: "a", prompt: "p" }, { key: "\u0430", prompt: "q" }] } });
    expect(listed.message).toContain('scenario keys "a" and "\u0430" read alike (character 1 is U+0061 in one and U+0430 in the other)');
  });
});

describe("replaceScenarios", () => {
  it("refuses a key not in NFC, naming the composed form, and leaves the suite as it was", async () => {
    const created = await p.gql(p.keys.acmeWrite, CREATE, { input: { agent: "A", name: "Identifiers", scenariosText: "Where is my order? | key: order" } });
    const id = created.body.data.createEvaluation.evaluationId as string;
    const replace = `mutation ($id: ID!, $s: JSON) { replaceScenarios(evaluationId: $id, scenarios: $s) { __typename } }`;
    const error = await refused(replace, { id, s: [{ key: "cafe\u0301", prompt: "p" }] });
    expect(error.message).toContain('is not in Unicode NFC (a character is written decomposed): write "caf\u00e9" instead');
    expect(error.field).toMatch(/scenarios\[0\]\.key/);
  });
});

describe("startRun on an evaluation recorded before the rule", () => {
  it("refuses its recorded compare models as a run's labels, saying whose they are and how to start anyway", async () => {
    const created = await p.gql(p.keys.acmeWrite, CREATE, { input: { agent: "A", name: "recorded-before", compareModels: ["gpt-5-mini"], scenarios: [{ key: "k", prompt: "Where is my order?" }] } });
    const evaluationId = created.body.data.createEvaluation.evaluationId as string;
    // A copy of its stream as an older build wrote it: compare models that read alike.
    const stream = (await p.store.readStream(`evaluation-${evaluationId}`)).map((e) => ({ id: randomUUID(), type: e.type, schemaVersion: e.schemaVersion, data: e.data, metadata: e.metadata }));
    const olderId = "00000000-0000-4000-8000-0000000000aa";
    const first = stream[0] as { data: Record<string, unknown> };
    stream[0] = { ...stream[0], data: { ...first.data, evaluation_id: olderId, name: "recorded-older", compare_models: ["gpt-5-mini", "g\u0440t-5-mini"] } };
    await p.store.append(`evaluation-${olderId}`, stream as never);
    const START = `mutation ($id: ID!, $models: [String!]) { startRun(evaluationId: $id, selection: { models: $models }) { runId } }`;
    const refusedStart = await p.gql(p.keys.acmeWrite, START, { id: olderId });
    expect(refusedStart.body.errors?.[0]?.message).toMatch(/^selection\.models: the evaluation's compare models: models "gpt-5-mini" and "g\u0440t-5-mini" read alike .*; name the models to run in selection\.models$/);
    const started = await p.gql(p.keys.acmeWrite, START, { id: olderId, models: ["gpt-5-mini"] });
    expect(started.body.errors, JSON.stringify(started.body)).toBeUndefined();
  });
});
