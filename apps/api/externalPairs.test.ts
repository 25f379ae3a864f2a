// An external run takes exactly one result per selected pair (reference-platform §3 rule 2, §7
// behaviour 2), through real GraphQL: a pair outside the selection or a second, different replay
// fails the run, naming the pair, and keeps what was recorded; the same replay sent again is a
// no-op, even after the run ended; a run that has ended refuses anything else and stays as it is.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runStream } from "@verdict/domain";
import { collect, finishedSampleRun, startPlatform, type Platform } from "./testing/harness.js";
import { nodes } from "./testing/nodes.js";

let p: Platform;
let evaluationId: string;
const FAILURE = "The external run did not report every selected scenario and model exactly once";

beforeAll(async () => {
  p = await startPlatform();
  ({ evaluationId } = await finishedSampleRun(p, ["gpt-5-mini"]));
}, 60_000);

afterAll(() => p?.close());

async function startExternal(keys: string[]): Promise<string> {
  const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $k: [String!]) { startRun(evaluationId: $id, external: true, selection: { keys: $k, models: ["gpt-5-mini"] }) { runId } }`, { id: evaluationId, k: keys });
  return started.body.data.startRun.runId;
}

function record(runId: string, scenarioKey: string, replay: Record<string, unknown>, modelLabel = "gpt-5-mini") {
  return p.gql(p.keys.acmeWrite, `mutation ($r: ID!, $k: String!, $m: String!, $replay: JSON!) { recordReplay(runId: $r, scenarioKey: $k, modelLabel: $m, replay: $replay) { scenarioKey duplicate } }`, {
    r: runId, k: scenarioKey, m: modelLabel, replay,
  });
}

async function runOf(runId: string) {
  const res = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { status errorMessage failurePairs results { edges { node { scenarioKey answer } } } } }`, { r: runId });
  const run = res.body.data.run;
  return { ...run, results: nodes(run.results) };
}

const runEventTypes = async (runId: string) => (await p.store.readStream(runStream(runId), { from: "start", direction: "forwards" })).map((e) => e.type);

describe("an external run's pairs", () => {
  it("refuses a replay key it does not know, naming it, and takes camelCase keys as the library does", async () => {
    const runId = await startExternal(["greeting", "refund"]);
    const typo = await record(runId, "greeting", { answr: "Hello!" });
    expect(typo.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^replay\.answr: unknown key/), extensions: { code: "VALIDATION", field: "replay.answr" } });
    expect(await runEventTypes(runId)).toEqual(["RunStarted"]);
    expect((await record(runId, "greeting", { answer: "Hello!", toolCalls: [{ name: "lookup_order" }], durationMs: 900 })).body.data.recordReplay).toEqual({ scenarioKey: "greeting", duplicate: false });
    const audit = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { results { edges { node { scenarioKey toolCalls durationMs } } } } }`, { r: runId });
    expect(nodes(audit.body.data.run.results)).toContainEqual({ scenarioKey: "greeting", toolCalls: [{ name: "lookup_order" }], durationMs: 900 });
  });

  it("fails the run for a pair outside its selection, naming the pair, and keeps the replay recorded before", async () => {
    const runId = await startExternal(["greeting", "refund"]);
    expect((await record(runId, "greeting", { answer: "Hello! How can I help you today?" })).body.data.recordReplay).toEqual({ scenarioKey: "greeting", duplicate: false });
    const outside = await record(runId, "order_status", { answer: "It ships Friday." });
    expect(outside.body.data).toBeNull();
    expect(outside.body.errors[0]).toMatchObject({
      message: `pair order_status × gpt-5-mini is not in run ${runId}'s selection; run ${runId} failed: ${FAILURE}: unknown order_status × gpt-5-mini`,
      extensions: { code: "VALIDATION", field: "scenarioKey" },
    });
    const run = await runOf(runId);
    expect(run).toMatchObject({
      status: "FAILED",
      errorMessage: `${FAILURE}: unknown order_status × gpt-5-mini`,
      failurePairs: { missing: [], unknown: ["order_status × gpt-5-mini"], duplicate: [] },
    });
    expect(run.results).toContainEqual({ scenarioKey: "greeting", answer: "Hello! How can I help you today?" });
    expect(await runEventTypes(runId)).toEqual(["RunStarted", "RunFailed"]);
    // A model outside the selection is a pair outside it too; the run, already failed, stays so.
    const otherModel = await record(runId, "greeting", { answer: "Hi." }, "claude-sonnet-5");
    expect(otherModel.body.errors[0]).toMatchObject({
      message: `pair greeting × claude-sonnet-5 is not in run ${runId}'s selection; run ${runId} is failed`,
      extensions: { code: "VALIDATION" },
    });
    expect(await runEventTypes(runId)).toEqual(["RunStarted", "RunFailed"]);
  });

  it("fails the run for a second, different replay of a recorded pair, keeping the first; completing it later changes nothing", async () => {
    const runId = await startExternal(["greeting", "refund"]);
    await record(runId, "greeting", { answer: "Hello! How can I help you today?", input_tokens: 20 });
    const different = await record(runId, "greeting", { answer: "Hello! How can I help you today?", input_tokens: 21 });
    expect(different.body.errors[0]).toMatchObject({
      message: `pair greeting × gpt-5-mini of run ${runId} is already recorded with a different replay; run ${runId} failed: ${FAILURE}: duplicate greeting × gpt-5-mini`,
      extensions: { code: "CONFLICT", field: "scenarioKey" },
    });
    await record(runId, "refund", { answer: "Refunded." }).then((res) => expect(res.body.errors[0].extensions.code).toBe("CONFLICT"));
    // The first replay sent again after the failure: the answer its host lost, not a new refusal.
    const resent = await record(runId, "greeting", { answer: "Hello! How can I help you today?", input_tokens: 20 });
    expect(resent.body).toEqual({ data: { recordReplay: { scenarioKey: "greeting", duplicate: true } } });
    await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { completeExternalRun(runId: $r) { total } }`, { r: runId });
    const run = await runOf(runId);
    expect(run).toMatchObject({ status: "FAILED", errorMessage: `${FAILURE}: duplicate greeting × gpt-5-mini` });
    expect(run.results).toContainEqual({ scenarioKey: "greeting", answer: "Hello! How can I help you today?" });
    expect(run.results).toContainEqual({ scenarioKey: "refund", answer: null });
    expect(await runEventTypes(runId)).toEqual(["RunStarted", "RunFailed"]);
  });

  it("fails the run once when refused results arrive together", async () => {
    const runId = await startExternal(["greeting", "refund"]);
    const answers = await Promise.all(["order_status", "nope", "other", "more"].map((key) => record(runId, key, { answer: "?" })));
    for (const answer of answers) expect(answer.body.errors[0].extensions.code).toBe("VALIDATION");
    expect(answers.filter((a) => a.body.errors[0].message.includes(`run ${runId} failed: ${FAILURE}`))).toHaveLength(1);
    expect(await runEventTypes(runId)).toEqual(["RunStarted", "RunFailed"]);
  });

  it("takes the same replay sent again as a no-op success: nothing appended, counted once, and the run completes", async () => {
    const runId = await startExternal(["greeting"]);
    const replay = { answer: "Hello! How can I help you today?", tool_calls: [{ name: "lookup_order", arguments: { order_id: "4821" } }], input_tokens: 20, metadata: { trace: "t1" } };
    expect((await record(runId, "greeting", replay)).body.data.recordReplay.duplicate).toBe(false);
    const logged = (await p.store.readAll({ limit: 100_000 })).length;
    // Sent again, its keys in another order and an absent field as null: the same replay.
    const resent = { metadata: { trace: "t1" }, input_tokens: 20, error: null, tool_calls: replay.tool_calls, answer: replay.answer };
    const again = await record(runId, "greeting", resent);
    expect(again.body).toEqual({ data: { recordReplay: { scenarioKey: "greeting", duplicate: true } } });
    expect((await p.store.readAll({ limit: 100_000 })).length).toBe(logged);
    const done = collect<any>(p.wsClient(p.keys.acmeRead), `subscription ($r: ID!) { runProgress(runId: $r) { status completed } }`, { r: runId });
    const completion = await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { completeExternalRun(runId: $r) { scored total } }`, { r: runId });
    expect(completion.body.data.completeExternalRun.total).toBe(1);
    expect((await done).at(-1).runProgress).toEqual({ status: "COMPLETED", completed: 1 });

    // Ended: the same replay again is still the idempotent answer (a host retrying a request whose
    // answer it lost), writing nothing; anything else is refused as before, and the run stays as it is.
    const before = await runEventTypes(runId);
    const ended = (await p.store.readAll({ limit: 100_000 })).length;
    expect((await record(runId, "greeting", resent)).body).toEqual({ data: { recordReplay: { scenarioKey: "greeting", duplicate: true } } });
    expect((await p.store.readAll({ limit: 100_000 })).length).toBe(ended);
    const late = await record(runId, "greeting", { answer: "Something else." });
    expect(late.body.errors[0]).toMatchObject({ message: `run ${runId} is complete; it takes no more results`, extensions: { code: "CONFLICT" } });
    const outside = await record(runId, "refund", { answer: "Refunded." });
    expect(outside.body.errors[0]).toMatchObject({ message: `pair refund × gpt-5-mini is not in run ${runId}'s selection; run ${runId} is complete`, extensions: { code: "VALIDATION" } });
    expect(await runEventTypes(runId)).toEqual(before);
    expect(await runOf(runId)).toMatchObject({ status: "COMPLETED", errorMessage: null });
  });
});
