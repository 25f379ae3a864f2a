// archiveEvaluation (reference-platform §1 #41): an archived evaluation leaves the index
// (`evaluations`) unless asked for, the same value again changes nothing, and a new run or an
// imported report unarchives it. Only a write key of the evaluation's own tenant may archive.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;

const ARCHIVE = `mutation ($e: ID!, $a: Boolean!) {
  archiveEvaluation(evaluationId: $e, archived: $a) { evaluationId evaluation { id archived archivedAt } }
}`;
const archive = (key: string, e: string, a: boolean) => p.gql(key, ARCHIVE, { e, a });

/** The ids `evaluations` lists for acme, under `archived` as given (omitted: the index). */
async function listed(archived?: boolean | null): Promise<string[]> {
  const filter = archived === undefined ? "" : `, archived: ${archived === null ? "null" : archived}`;
  const answer = await p.gql(p.keys.acmeRead, `{ evaluations(first: 100${filter}) { totalCount edges { node { id archived } } } }`);
  expect(answer.body.errors).toBeUndefined();
  const { edges, totalCount } = answer.body.data.evaluations;
  expect(totalCount).toBe(edges.length);
  return edges.map((e: { node: { id: string } }) => e.node.id);
}

async function created(name: string): Promise<string> {
  const answer = await p.gql(
    p.keys.acmeWrite,
    `mutation ($n: String) { createEvaluation(input: { agent: "Archivist", name: $n, scenariosText: "Where is my order?", compareModels: ["gpt-5-mini"] }) { evaluationId } }`,
    { n: name },
  );
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data.createEvaluation.evaluationId;
}

const eventCount = async () => (await p.store.readAll()).length;

beforeAll(async () => {
  p = await startPlatform();
}, 60_000);

afterAll(async () => {
  await p?.close();
});

describe("archiveEvaluation", () => {
  it("archives: the answer says so, the index leaves it out, archived: true and null list it", async () => {
    const kept = await created("Kept");
    const shelved = await created("Shelved");
    const before = Date.now();
    const answer = await archive(p.keys.acmeWrite, shelved, true);
    expect(answer.body.errors).toBeUndefined();
    const payload = answer.body.data.archiveEvaluation;
    expect(payload).toEqual({ evaluationId: shelved, evaluation: { id: shelved, archived: true, archivedAt: expect.any(String) } });
    expect(Date.parse(payload.evaluation.archivedAt)).toBeGreaterThanOrEqual(before - 1_000);
    expect(await listed()).toContain(kept);
    expect(await listed()).not.toContain(shelved);
    expect(await listed(false)).toEqual(await listed());
    expect(await listed(true)).toEqual([shelved]);
    expect(await listed(null)).toEqual(expect.arrayContaining([kept, shelved]));
    const read = await p.gql(p.keys.acmeRead, `query ($e: ID!) { evaluation(id: $e) { archived archivedAt } }`, { e: shelved });
    expect(read.body.data.evaluation).toEqual({ archived: true, archivedAt: payload.evaluation.archivedAt });

    // Again: nothing is appended, and the answer is the same (archivedAt is the first time's).
    const events = await eventCount();
    const again = await archive(p.keys.acmeWrite, shelved, true);
    expect(again.body).toEqual(answer.body);
    expect(await eventCount()).toBe(events);

    // Unarchived: back in the index, no longer among the archived, archivedAt cleared.
    const back = await archive(p.keys.acmeWrite, shelved, false);
    expect(back.body).toEqual({ data: { archiveEvaluation: { evaluationId: shelved, evaluation: { id: shelved, archived: false, archivedAt: null } } } });
    expect(await listed()).toEqual(expect.arrayContaining([kept, shelved]));
    expect(await listed(true)).toEqual([]);
    const unchanged = await eventCount();
    expect((await archive(p.keys.acmeWrite, shelved, false)).body).toEqual(back.body);
    expect(await eventCount()).toBe(unchanged);
  });

  it("is unarchived by a new run", async () => {
    const evaluationId = await created("Run again");
    expect((await archive(p.keys.acmeWrite, evaluationId, true)).body.errors).toBeUndefined();
    expect(await listed()).not.toContain(evaluationId);
    const started = await p.gql(p.keys.acmeWrite, `mutation ($e: ID!) { startRun(evaluationId: $e, external: true) { runId } }`, { e: evaluationId });
    expect(started.body.errors).toBeUndefined();
    const read = await p.gql(p.keys.acmeRead, `query ($e: ID!) { evaluation(id: $e) { archived archivedAt } }`, { e: evaluationId });
    expect(read.body.data.evaluation).toEqual({ archived: false, archivedAt: null });
    expect(await listed()).toContain(evaluationId);
    expect(await listed(true)).not.toContain(evaluationId);
  });

  it("is unarchived by an imported report", async () => {
    const evaluationId = await created("Imported again");
    expect((await archive(p.keys.acmeWrite, evaluationId, true)).body.errors).toBeUndefined();
    const models = { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } };
    const report = { models, results: [{ scenario_key: "hello", label: "gpt-5-mini", status: "passed", score: 1 }] };
    const envelope = { version: 1, run_id: "archived-import-1", source: "ci", agent_name: "Archivist", suite: "Imported again", report };
    const imported = await p.gql(p.keys.acmeWrite, `mutation ($e: ID!, $x: JSON!) { importReport(evaluationId: $e, envelope: $x) { runId } }`, { e: evaluationId, x: envelope });
    expect(imported.body.errors).toBeUndefined();
    const read = await p.gql(p.keys.acmeRead, `query ($e: ID!) { evaluation(id: $e) { archived archivedAt } }`, { e: evaluationId });
    expect(read.body.data.evaluation).toEqual({ archived: false, archivedAt: null });
    expect(await listed()).toContain(evaluationId);
  });

  it("answers another tenant's evaluation NOT_FOUND, as a missing one, and changes nothing", async () => {
    const evaluationId = await created("Not theirs");
    const events = await eventCount();
    const foreign = await archive(p.keys.globexWrite, evaluationId, true);
    const missingId = randomUUID();
    const missing = await archive(p.keys.globexWrite, missingId, true);
    expect(foreign.body.data).toBeNull();
    expect(foreign.body.errors[0]).toMatchObject({ message: `evaluation ${evaluationId} not found`, extensions: { code: "NOT_FOUND", field: "evaluationId" } });
    expect(JSON.stringify(foreign.body).replaceAll(evaluationId, "<id>")).toBe(JSON.stringify(missing.body).replaceAll(missingId, "<id>"));
    expect(await eventCount()).toBe(events);
    expect(await listed()).toContain(evaluationId);
  });

  it("answers a missing or malformed id NOT_FOUND, writing nothing", async () => {
    const events = await eventCount();
    for (const id of [randomUUID(), "no such evaluation"]) {
      const answer = await archive(p.keys.acmeWrite, id, true);
      expect(answer.body.data, id).toBeNull();
      expect(answer.body.errors[0].extensions, id).toEqual({ code: "NOT_FOUND", field: "evaluationId" });
    }
    expect(await eventCount()).toBe(events);
  });

  it("refuses a read key FORBIDDEN, writing nothing", async () => {
    const evaluationId = await created("Read only");
    const events = await eventCount();
    const answer = await archive(p.keys.acmeRead, evaluationId, true);
    expect(answer.body.data).toBeNull();
    expect(answer.body.errors[0]).toMatchObject({ extensions: { code: "FORBIDDEN" } });
    expect(await eventCount()).toBe(events);
    expect(await listed()).toContain(evaluationId);
  });

  it("refuses an archived value that is not a boolean before any resolver runs", async () => {
    const evaluationId = await created("Not a boolean");
    const answer = await p.gql(p.keys.acmeWrite, `mutation ($e: ID!) { archiveEvaluation(evaluationId: $e, archived: "yes") { evaluationId } }`, { e: evaluationId });
    expect(answer.body.errors[0]).toMatchObject({ message: 'Boolean cannot represent a non boolean value: "yes"', extensions: { code: "GRAPHQL_VALIDATION_FAILED" } });
    expect(await listed()).toContain(evaluationId);
  });
});

describe("archiveEvaluation while the read models lag", () => {
  it("a retry after UNAVAILABLE is not answered from read models still behind the log", async () => {
    const lagging = await startPlatform({ projectionWaitMs: 300 });
    try {
      const made = await lagging.gql(lagging.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "Archivist", name: "Lagging", scenariosText: "Where is my order?", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
      const evaluationId = made.body.data.createEvaluation.evaluationId;
      await lagging.projector.stop();
      const first = await lagging.gql(lagging.keys.acmeWrite, ARCHIVE, { e: evaluationId, a: true });
      expect(first.body.errors?.[0]?.extensions?.code).toBe("UNAVAILABLE");
      // Recorded the first time: the retry appends nothing, and the read models still say false.
      const retry = await lagging.gql(lagging.keys.acmeWrite, ARCHIVE, { e: evaluationId, a: true });
      expect(retry.body.errors?.[0]?.extensions?.code).toBe("UNAVAILABLE");
      expect(retry.body.data).toBeNull();
    } finally {
      await lagging.close();
    }
  }, 60_000);
});
