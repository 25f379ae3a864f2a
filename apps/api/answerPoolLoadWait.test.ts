// A heavy answer waits for its tenant's load slot at most VERDICT_API_HEAVY_LOAD_WAIT_MS, over a
// real server and real HTTP. acme's two load slots are taken by two requests for a run whose
// stream never answers until the test lets it (a slow heavy query): acme's next heavy request
// waited behind them for ever; now it answers UNAVAILABLE after the wait, while globex's, with
// slots of its own, is answered at once. A report whose client left while it waited is never
// rendered.
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { runStream } from "@verdict/domain";
import { startPlatform, type Platform } from "./testing/harness.js";

// Long enough that the other tenant's answer comes well within it on a loaded 2-CPU machine.
const WAIT_MS = 1500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const AUDIT = `query ($r: ID!) { runAudit(id: $r) { runId events { type } } }`;

let p: Platform;
const runs = { acme: { evaluationId: "", runId: "" }, slow: { evaluationId: "", runId: "" }, globex: { evaluationId: "", runId: "" } };

async function recordedRun(key: string, name: string): Promise<{ evaluationId: string; runId: string }> {
  const created = await p.gql(key, `mutation ($n: String!) { createEvaluation(input: { agent: "A", name: $n, scenarios: [{ key: "s0", prompt: "p" }], compareModels: ["gpt-5-mini"] }) { evaluationId } }`, { n: name });
  const evaluationId = created.body.data.createEvaluation.evaluationId;
  const runId = (await p.gql(key, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId } }`, { id: evaluationId })).body.data.startRun.runId;
  const recorded = await p.gql(key, `mutation ($r: ID!) { recordReplay(runId: $r, scenarioKey: "s0", modelLabel: "gpt-5-mini", replay: { answer: "an answer" }) { scenarioKey } }`, { r: runId });
  expect(recorded.body.errors).toBeUndefined();
  return { evaluationId, runId };
}

beforeAll(async () => {
  p = await startPlatform({ limits: { heavyLoadWaitMs: WAIT_MS } });
  runs.acme = await recordedRun(p.keys.acmeWrite, "Waits");
  runs.slow = await recordedRun(p.keys.acmeWrite, "Slow");
  runs.globex = await recordedRun(p.keys.globexWrite, "Other");
}, 60_000);
afterAll(() => p?.close());
afterEach(() => vi.restoreAllMocks());

/** Reads of `runId`'s stream (a heavy answer loading it) hang until `release`; `reads` counts them. */
function slowStream(runId: string): { release: () => void; reads: () => number } {
  const readStream = p.store.readStream.bind(p.store);
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  let reads = 0;
  vi.spyOn(p.store, "readStream").mockImplementation(async (stream, options) => {
    if (stream === runStream(runId)) {
      reads += 1;
      await gate;
    }
    return readStream(stream, options);
  });
  return { release: open, reads: () => reads };
}

/** Two of acme's slow heavy requests, taking both its load slots until `release`. */
async function acmeSlotsTaken(): Promise<{ release: () => Promise<void> }> {
  const slow = slowStream(runs.slow.runId);
  const holding = [0, 1].map(() => p.gql(p.keys.acmeRead, AUDIT, { r: runs.slow.runId }));
  for (let i = 0; i < 100 && slow.reads() < 2; i++) await sleep(10);
  expect(slow.reads()).toBe(2);
  return {
    async release() {
      slow.release();
      for (const answered of await Promise.all(holding)) expect(answered.body.errors).toBeUndefined();
    },
  };
}

it("answers a heavy field queued for its tenant's slot UNAVAILABLE at its path after the wait, while another tenant's is answered at once", async () => {
  const slots = await acmeSlotsTaken();
  const started = Date.now();
  const queued = p.gql(p.keys.acmeRead, AUDIT, { r: runs.acme.runId });
  const other = await p.gql(p.keys.globexWrite, AUDIT, { r: runs.globex.runId });
  expect(other.body.errors).toBeUndefined();
  expect(other.body.data.runAudit.runId).toBe(runs.globex.runId);
  expect(Date.now() - started).toBeLessThan(WAIT_MS);

  const refused = await queued;
  expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS - 20);
  expect(refused.body).toEqual({
    data: { runAudit: null },
    errors: [{
      message: `\`runAudit\` got no load slot: this tenant's 2 heavy-answer load slots stayed busy with its other requests' heavy answers for the ${WAIT_MS} ms a request may wait for them (VERDICT_API_HEAVY_LOAD_WAIT_MS): retry in a moment`,
      path: ["runAudit"],
      locations: expect.any(Array),
      extensions: { code: "UNAVAILABLE" },
    }],
  });
  await slots.release();
  // The slot it gave up is no one's: the same request now answers at once.
  const again = await p.gql(p.keys.acmeRead, AUDIT, { r: runs.acme.runId });
  expect(again.body.errors).toBeUndefined();
});

it("answers a report queued for its tenant's slot 503 UNAVAILABLE with Retry-After after the wait, while another tenant's is served", async () => {
  const slots = await acmeSlotsTaken();
  const queued = p.get(p.keys.acmeRead, `/api/evaluation_reports/${runs.acme.runId}`);
  const other = await p.get(p.keys.globexWrite, `/api/evaluations/${runs.globex.evaluationId}/runs/${runs.globex.runId}/report.md`);
  expect(other.status).toBe(200);
  const refused = await queued;
  expect(refused.status).toBe(503);
  expect(refused.headers.get("retry-after")).toBe("3");
  expect(await refused.json()).toEqual({
    error: `the report got no load slot: this tenant's 2 heavy-answer load slots stayed busy with its other requests' heavy answers for the ${WAIT_MS} ms a request may wait for them (VERDICT_API_HEAVY_LOAD_WAIT_MS): retry in a moment`,
    code: "UNAVAILABLE",
  });
  await slots.release();
  expect((await p.get(p.keys.acmeRead, `/api/evaluation_reports/${runs.acme.runId}`)).status).toBe(200);
});

it("refuses a report query that can never succeed at once, 400, not 503 after waiting for a slot", async () => {
  const slots = await acmeSlotsTaken();
  const base = `/api/evaluations/${runs.acme.evaluationId}/runs/${runs.acme.runId}`;
  for (const [path, field] of [[`${base}/report?theme=sepia`, "theme"], [`${base}/report.md?part=bogus`, "part"], [`${base}/report.md?part=scenario`, "scenario"], [`${base}/report.json?download=2`, "download"], [`${base}/report.json?theme=dark`, "theme"], [`/api/evaluation_reports/${runs.acme.runId}?them=dark`, "them"]]) {
    const started = performance.now();
    const answer = await p.get(p.keys.acmeRead, path);
    expect([answer.status, ((await answer.json()) as { field: string }).field], path).toEqual([400, field]);
    expect(performance.now() - started, path).toBeLessThan(WAIT_MS / 2);
  }
  await slots.release();
});

it("renders nothing for a report whose client left while it waited for a slot: it left the queue", async () => {
  const slots = await acmeSlotsTaken();
  const reads = vi.spyOn(p.store, "readStream");
  const leaving = new AbortController();
  const sent = fetch(`${p.api.url}/api/evaluations/${runs.acme.evaluationId}/runs/${runs.acme.runId}/report.json`, { signal: leaving.signal, headers: { authorization: `Bearer ${p.keys.acmeRead}` } }).catch((error: unknown) => error);
  await sleep(100);
  leaving.abort();
  await sent;
  await sleep(50);
  // Its slot frees well before the wait's end: a waiter still queued would now load the run.
  await slots.release();
  await sleep(200);
  expect(reads.mock.calls.filter(([stream]) => stream === runStream(runs.acme.runId))).toEqual([]);
});
