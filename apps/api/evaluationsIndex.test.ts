// The evaluations index: newest-updated first and optionally one agent's, as the reference's
// `GET /api/evaluations` (agent_id filter; "≤50 newest-updated"). It was listed by creation, so an
// evaluation that just ran stayed below every one created after it.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startPlatform, type Platform } from "./testing/harness.js";
import { nodes } from "./testing/nodes.js";

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
}, 60_000);
afterAll(async () => {
  await p?.close();
});

const LIST = `query ($agent: String, $first: Int, $after: String) { evaluations(agent: $agent, first: $first, after: $after) { totalCount edges { node { name } } pageInfo { hasNextPage endCursor } } }`;

async function create(agent: string, name: string): Promise<string> {
  const created = await p.gql(p.keys.acmeWrite, `mutation ($a: String!, $n: String!) { createEvaluation(input: { agent: $a, name: $n, compareModels: ["gpt-5-mini"] }) { evaluationId } }`, { a: agent, n: name });
  return created.body.data.createEvaluation.evaluationId;
}

async function names(variables: Record<string, unknown> = {}): Promise<string[]> {
  const listed = await p.gql(p.keys.acmeRead, LIST, variables);
  expect(listed.body.errors).toBeUndefined();
  return nodes(listed.body.data.evaluations).map((e: { name: string }) => e.name);
}

it("lists the newest-updated first (an import moves its evaluation up), and one agent's with `agent`, paging within that list", async () => {
  const oldest = await create("IndexAgent", "index-a");
  await create("OtherAgent", "index-b");
  await create("IndexAgent", "index-c");
  expect(await names()).toEqual(["index-c", "index-b", "index-a"]);
  const report = { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results: [{ scenario_key: "a", label: "gpt-5-mini", status: "passed", score: 1 }] };
  const envelope = { version: 1, run_id: "index-1", source: "ci", agent_name: "IndexAgent", suite: "s", report };
  const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { number } }`, { id: oldest, e: envelope });
  expect(imported.body.errors).toBeUndefined();
  expect(await names()).toEqual(["index-a", "index-c", "index-b"]);
  expect(await names({ agent: "IndexAgent" })).toEqual(["index-a", "index-c"]);
  expect(await names({ agent: "NoSuchAgent" })).toEqual([]);
  const first = await p.gql(p.keys.acmeRead, LIST, { agent: "IndexAgent", first: 1 });
  expect(first.body.data.evaluations).toMatchObject({ totalCount: 2, pageInfo: { hasNextPage: true } });
  const cursor = first.body.data.evaluations.pageInfo.endCursor;
  expect(await names({ agent: "IndexAgent", first: 1, after: cursor })).toEqual(["index-c"]);
  // A place in one agent's list is not one in every agent's.
  const crossed = await p.gql(p.keys.acmeRead, LIST, { first: 1, after: cursor });
  expect(crossed.body.errors[0].extensions).toMatchObject({ code: "VALIDATION" });
});
