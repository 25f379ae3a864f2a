// What one tenant must not learn about another. Its run or evaluation must answer NOT_FOUND
// exactly as a missing id does, and as fast: when its stream was read and decoded first, the
// answer took longer the larger the run, so a caller could tell "exists elsewhere" from "does not
// exist" by the clock (rather than timing, these count the reads of the other tenant's streams:
// none may happen). And a run's audit positions must not count the other tenants' events.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { importedRunId, readWholeStream, runStream, type EventStore } from "@verdict/domain";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { collect, finishedSampleRun, startPlatform, type Platform } from "./testing/harness.js";

/** The memory store, noting every stream read (and every filtered log scan's prefixes). */
function countingStore(inner: EventStore, reads: string[]): EventStore {
  return {
    append: (streamId, events, options) => inner.append(streamId, events, options),
    readStream: (streamId, options) => (reads.push(streamId), inner.readStream(streamId, options)),
    readAll: (options) => (reads.push(...(options?.filter?.streamPrefixes ?? [])), inner.readAll(options)),
    subscribeAll: (options) => inner.subscribeAll(options),
    streamVersion: (streamId) => inner.streamVersion(streamId),
    lastPosition: () => inner.lastPosition(),
    close: () => inner.close(),
  };
}

const reads: string[] = [];
let p: Platform;
let evaluationId: string;
let runId: string;
let globexEvaluationId: string;

beforeAll(async () => {
  p = await startPlatform({ store: countingStore(createMemoryEventStore(), reads), projectionWaitMs: 1_500 });
  ({ evaluationId, runId } = await finishedSampleRun(p, ["gpt-5-mini", "claude-sonnet-5"]));
  const own = await p.gql(p.keys.globexWrite, `mutation { createEvaluation(input: { agent: "Globex", name: "Own", scenariosText: "Hello" }) { evaluationId } }`);
  globexEvaluationId = own.body.data.createEvaluation.evaluationId;
}, 60_000);

afterAll(() => p?.close());

/** The reads of acme's run and evaluation streams `act` makes (its pair streams included). */
async function readsOfAcme<T>(act: () => Promise<T>): Promise<{ answer: T; touched: string[] }> {
  reads.length = 0;
  const answer = await act();
  const touched = reads.filter((s) => s === `run-${runId}` || s.startsWith(`result-${runId}.`) || s === `evaluation-${evaluationId}`);
  return { answer, touched };
}

/** An answer with the id it was about replaced, to compare the foreign id's with a missing one's. */
const about = (answer: unknown, id: string) => JSON.stringify(answer).replaceAll(id, "<id>");

it("answers another tenant's run and evaluation NOT_FOUND without reading their streams, word for word as a missing id", async () => {
  const g = p.keys.globexWrite;
  const envelope = { version: 1, run_id: "planted", source: "s", agent_name: "a", suite: "s", report: { models: {} } };
  const graphql: Array<[string, string]> = [
    ["r", `query ($r: ID!) { runAudit(id: $r) { runId } }`],
    ["r", `mutation ($r: ID!) { recordReplay(runId: $r, scenarioKey: "greeting", modelLabel: "gpt-5-mini", replay: { answer: "Hi" }) { runId } }`],
    ["r", `mutation ($r: ID!) { completeExternalRun(runId: $r) { runId } }`],
    ["e", `mutation ($e: ID!) { startRun(evaluationId: $e) { runId } }`],
    ["e", `mutation ($e: ID!) { replaceScenarios(evaluationId: $e, scenariosText: "Hello") { added } }`],
    ["e", `mutation ($e: ID!) { mergeScenarios(evaluationId: $e, scenariosText: "Hello") { added } }`],
    ["e", `mutation ($e: ID!, $x: JSON!) { importReport(evaluationId: $e, envelope: $x) { runId } }`],
    ["e", `mutation ($e: ID!) { archiveEvaluation(evaluationId: $e, archived: true) { evaluationId } }`],
    ["e", `mutation ($e: ID!) { clearKpis(evaluationId: $e) { cleared } }`],
  ];
  for (const [kind, query] of graphql) {
    const id = kind === "r" ? runId : evaluationId;
    const missing = randomUUID();
    const { answer: foreign, touched } = await readsOfAcme(() => p.gql(g, query, { [kind]: id, ...(query.includes("$x") ? { x: envelope } : {}) }));
    const absent = await p.gql(g, query, { [kind]: missing, ...(query.includes("$x") ? { x: envelope } : {}) });
    expect(touched, query).toEqual([]);
    expect(foreign.body.errors[0].extensions.code, query).toBe("NOT_FOUND");
    expect(about(foreign, id), query).toBe(about(absent, missing));
  }
  for (const ext of ["", ".md", ".json"]) {
    const { answer, touched } = await readsOfAcme(async () => {
      const res = await p.get(g, `/api/evaluations/${evaluationId}/runs/${runId}/report${ext}`);
      return { status: res.status, body: await res.text() };
    });
    const missing = randomUUID();
    const res = await p.get(g, `/api/evaluations/${evaluationId}/runs/${missing}/report${ext}`);
    expect(touched, ext).toEqual([]);
    expect(answer.status).toBe(404);
    expect(about(answer, runId)).toBe(about({ status: res.status, body: await res.text() }, missing));
  }
  const subscribe = (r: string) => collect(p.wsClient(g), `subscription ($r: ID!) { runEvents(runId: $r) { type } }`, { r }).catch((e: { errors: unknown }) => e.errors);
  const { answer: live, touched } = await readsOfAcme(() => subscribe(runId));
  const missing = randomUUID();
  expect(touched).toEqual([]);
  expect(about(live, runId)).toBe(about(await subscribe(missing), missing));
});

it("imports a report whose run_id is another tenant's run id without reading that run", async () => {
  const models = { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } };
  const report = { models, results: [{ scenario_key: "hello", label: "gpt-5-mini", status: "passed", score: 1 }] };
  const envelope = { version: 1, run_id: runId, source: "ci", agent_name: "Globex", suite: "own", report };
  const mutation = `mutation ($e: ID!, $x: JSON!) { importReport(evaluationId: $e, envelope: $x) { runId hostRunId duplicate } }`;
  const { answer, touched } = await readsOfAcme(() => p.gql(p.keys.globexWrite, mutation, { e: globexEvaluationId, x: envelope }));
  expect(touched).toEqual([]);
  expect(answer.body).toEqual({ data: { importReport: { runId: importedRunId("globex", runId), hostRunId: runId, duplicate: false } } });
});

it("decides from the stream, as before, an id the read models do not have yet", async () => {
  await p.projector.stop();
  try {
    const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "Lagging", scenariosText: "Hello" }) { evaluationId } }`);
    const [, lagging] = /^evaluation (\S+) was recorded/.exec(created.body.errors[0].message) ?? [];
    const merge = (key: string) => p.gql(key, `mutation ($e: ID!) { mergeScenarios(evaluationId: $e, scenariosText: "Bye") { added } }`, { e: lagging });
    const [foreign, own] = await Promise.all([merge(p.keys.globexWrite), merge(p.keys.acmeWrite)]);
    expect(foreign.body.errors[0].extensions).toEqual({ code: "NOT_FOUND", field: "evaluationId" });
    // Found, merged, then waiting for the stopped projector: the write is the caller's.
    expect(own.body.errors[0].extensions.code).toBe("UNAVAILABLE");
  } finally {
    p.projector.start();
  }
});

it("answers another tenant's run the read models do not have yet NOT_FOUND from its stream, as a missing id, writing nothing to it", async () => {
  await p.projector.stop();
  try {
    const started = await p.gql(p.keys.acmeWrite, `mutation ($e: ID!) { startRun(evaluationId: $e, external: true, selection: { keys: ["greeting"], models: ["gpt-5-mini"] }) { runId } }`, { e: evaluationId });
    const [, lagging] = /^run (\S+) was recorded/.exec(started.body.errors[0].message) ?? [];
    // In the log, not in the read models: only the run's stream can say whose it is.
    expect(await p.read.readModels.runTenant(lagging)).toBeNull();
    const written = (await readWholeStream(p.store, runStream(lagging))).length;
    const g = p.keys.globexWrite;
    const graphql = [
      `query ($r: ID!) { runAudit(id: $r) { runId } }`,
      `mutation ($r: ID!) { recordReplay(runId: $r, scenarioKey: "greeting", modelLabel: "gpt-5-mini", replay: { answer: "Hi" }) { runId } }`,
      `mutation ($r: ID!) { completeExternalRun(runId: $r) { runId } }`,
    ];
    for (const query of graphql) {
      const missing = randomUUID();
      const [foreign, absent] = [await p.gql(g, query, { r: lagging }), await p.gql(g, query, { r: missing })];
      expect(foreign.body.errors?.[0].extensions.code, query).toBe("NOT_FOUND");
      expect(about(foreign, lagging), query).toBe(about(absent, missing));
    }
    // The first answer only: a run still running never ends the subscription.
    const firstAnswer = async (r: string) => {
      const answers = p.wsClient(g).iterate({ query: `subscription ($r: ID!) { runEvents(runId: $r) { type } }`, variables: { r } });
      try {
        return (await answers.next()).value;
      } catch (errors) {
        return errors;
      } finally {
        await answers.return?.();
      }
    };
    const missing = randomUUID();
    expect(about(await firstAnswer(lagging), lagging)).toBe(about(await firstAnswer(missing), missing));
    expect(await readWholeStream(p.store, runStream(lagging))).toHaveLength(written);
    // Its own tenant reads it from the same stream.
    const own = await p.gql(p.keys.acmeRead, `query ($r: ID!) { runAudit(id: $r) { runId events { type } } }`, { r: lagging });
    expect(own.body.data.runAudit).toEqual({ runId: lagging, events: [{ type: "RunStarted" }] });
  } finally {
    p.projector.start();
  }
});

it("numbers a run's audit events 0, 1, 2... in runAudit and runEvents alike, whatever other tenants write meanwhile", async () => {
  const started = await p.gql(p.keys.acmeWrite, `mutation ($e: ID!) { startRun(evaluationId: $e, external: true, selection: { keys: ["greeting", "refund"], models: ["gpt-5-mini"] }) { runId } }`, { e: evaluationId });
  const external = started.body.data.startRun.runId;
  const record = (key: string) =>
    p.gql(p.keys.acmeWrite, `mutation ($r: ID!, $k: String!) { recordReplay(runId: $r, scenarioKey: $k, modelLabel: "gpt-5-mini", replay: { answer: "Done." }) { scenarioKey } }`, { r: external, k: key });
  await record("greeting");
  // Globex's events land in the log between the run's: the log's positions counted them.
  for (const text of ["One", "Two", "Three"]) {
    await p.gql(p.keys.globexWrite, `mutation ($e: ID!, $t: String!) { mergeScenarios(evaluationId: $e, scenariosText: $t) { added } }`, { e: globexEvaluationId, t: text });
  }
  await record("refund");
  const done = collect(p.wsClient(p.keys.acmeRead), `subscription ($r: ID!) { runProgress(runId: $r) { status } }`, { r: external });
  await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { completeExternalRun(runId: $r) { total } }`, { r: external });
  await done;
  const audit = await p.gql(p.keys.acmeRead, `query ($r: ID!) { runAudit(id: $r) { events { type position } } }`, { r: external });
  const events = audit.body.data.runAudit.events as Array<{ type: string; position: string }>;
  expect(events.map((e) => e.position)).toEqual(events.map((_, i) => String(i)));
  const live = await collect<any>(p.wsClient(p.keys.acmeRead), `subscription ($r: ID!) { runEvents(runId: $r) { type position } }`, { r: external });
  expect(live.map((m) => m.runEvents)).toEqual(events);
});
