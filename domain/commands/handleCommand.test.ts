import { beforeEach, describe, expect, it } from "vitest";
import { handleCommand } from "./handleCommand.js";
import { importReport, startRun } from "./twoStreamCommands.js";
import { CONTENDED_RETRIES, pauseCeilingMs } from "./contention.js";
import { evaluationAggregate } from "./evaluation/evaluationAggregate.js";
import { runAggregate } from "./run/runAggregate.js";
import { resultAggregate, pairStream } from "./result/resultAggregate.js";
import { InMemoryEventStore } from "./testing/inMemoryEventStore.js";
import { fixedClock, sequentialIds } from "./testing/fixed.js";
import { CLAUDE, DIGEST_A, DIGEST_B, GPT, scenario } from "./testing/fixtures.js";
import { toEventsToAppend } from "../events/toAppend.js";
import type { EventInput } from "../events/registry.js";
import { DomainError } from "../events/domainError.js";
import { isValidId } from "../events/streams.js";
import { importedRunId } from "./run/importedRunId.js";

let store: InMemoryEventStore;
const deps = () => ({ clock: fixedClock(), ids: sequentialIds(), context: { tenant: "acme", actor: "user-1" } });
const EVAL = "evaluation-e1";
const create = { type: "CreateEvaluation", evaluation_id: "e1", tenant: "acme", agent: "SupportAgent", name: "Support", scenarios: [scenario("a"), scenario("b")] };
const merge = (keys: string[], limit = 2000) => ({ type: "MergeScenarios", evaluation_id: "e1", scenarios: keys.map((k) => scenario(k)), limit });

/** A write by another process, appended without looking at the expected version. */
function racingWrite(streamId: string, events: EventInput[]) {
  store.appendNow(streamId, toEventsToAppend(events, { tenant: "acme", actor: "racer" }, { clock: fixedClock(), ids: sequentialIds("racer-") }));
}

beforeEach(() => {
  store = new InMemoryEventStore();
});

describe("handleCommand", () => {
  it("appends to a new stream with noStream and returns the events with their versions and position", async () => {
    const handled = await handleCommand(store, evaluationAggregate, EVAL, create, deps());
    expect(handled.events.map((e) => [e.type, e.streamVersion])).toEqual([
      ["EvaluationCreated", 0n],
      ["ScenariosReplaced", 1n],
    ]);
    expect(handled.version).toBe(1n);
    expect(handled.position).toEqual({ commit: 1n, prepare: 1n });
    expect(handled.state.scenarios.map((s) => s.key)).toEqual(["a", "b"]);
    expect(handled.events[0].metadata).toMatchObject({ tenant: "acme", actor: "user-1", recorded_at: "2026-11-30T12:00:00.000Z" });
    expect(handled.attempts).toBe(1);
    // a second create: the stream exists, the decider says so
    await expect(handleCommand(store, evaluationAggregate, EVAL, create, deps())).rejects.toThrow("evaluation e1 already exists");
  });

  it("appends with the exact version it read", async () => {
    await handleCommand(store, evaluationAggregate, EVAL, create, deps());
    const handled = await handleCommand(store, evaluationAggregate, EVAL, merge(["c"]), deps());
    expect(handled.events.map((e) => e.streamVersion)).toEqual([2n]);
    expect((await store.readStream(EVAL)).map((e) => e.type)).toEqual(["EvaluationCreated", "ScenariosReplaced", "ScenariosMerged"]);
  });

  it("appends nothing when the decider decides nothing", async () => {
    await handleCommand(store, evaluationAggregate, EVAL, create, deps());
    const calls = store.appendCalls;
    const handled = await handleCommand(store, evaluationAggregate, EVAL, { type: "ArchiveEvaluation", evaluation_id: "e1", archived: false }, deps());
    expect(handled.events).toEqual([]);
    expect(handled.position).toBeNull();
    expect(store.appendCalls).toBe(calls);
  });

  it("refuses an invalid command naming the field, writing nothing", async () => {
    await expect(handleCommand(store, evaluationAggregate, EVAL, { ...create, tenant: "a/b" }, deps())).rejects.toThrow(
      expect.objectContaining({ code: "validation", field: "tenant" }),
    );
    expect(store.log).toHaveLength(0);
  });

  it("retries a lost race on fresh state: a merge re-checks its limit and its additions", async () => {
    await handleCommand(store, evaluationAggregate, EVAL, create, deps());
    store.interleave(() => racingWrite(EVAL, [{ type: "ScenariosMerged", data: { limit: 2000, scenarios: [], added: [], updated: [], unchanged: [] } }]));
    const handled = await handleCommand(store, evaluationAggregate, EVAL, merge(["c"]), deps());
    expect(handled.attempts).toBe(2);
    expect(handled.events.map((e) => e.streamVersion)).toEqual([3n]);
    expect(handled.state.scenarios.map((s) => s.key)).toEqual(["a", "b", "c"]);
  });

  it("a retried merge sees what the racer added and refuses over the limit", async () => {
    await handleCommand(store, evaluationAggregate, EVAL, create, deps());
    const racerRecord = { key: "r", prompt: "p", expected_tools: [], expected_patterns: [], forbidden_patterns: [], production_only: false, position: 2, tags: [], params: {}, enabled: true };
    store.interleave(() => racingWrite(EVAL, [{ type: "ScenariosMerged", data: { limit: 3, scenarios: [racerRecord], added: ["r"], updated: [], unchanged: [] } }]));
    await expect(handleCommand(store, evaluationAggregate, EVAL, merge(["c"], 3), deps())).rejects.toThrow(
      "Scenario limit reached (3 per evaluation): the evaluation holds 3 and this merge adds 1",
    );
  });

  it("gives up after the bounded number of retries with a conflict", async () => {
    await handleCommand(store, evaluationAggregate, EVAL, create, deps());
    const noop: EventInput = { type: "EvaluationUnarchived", data: { reason: "requested" } };
    for (let i = 0; i < 3; i++) store.interleave(() => racingWrite(EVAL, [noop]));
    const attempt = handleCommand(store, evaluationAggregate, EVAL, merge(["c"]), { ...deps(), retries: 2 });
    await expect(attempt).rejects.toThrow(expect.objectContaining({ code: "conflict" }));
    await expect(attempt).rejects.toThrow(/MergeScenarios on evaluation-e1 lost a concurrent write after 3 attempt\(s\)/);
  });

  it("decides a replay that lost the race again: the same replay is a no-op, another is refused, neither appended", async () => {
    await handleCommand(store, evaluationAggregate, EVAL, create, deps());
    const { run } = await startRun(store, { run_id: "r1", evaluation_id: "e1", models: [GPT] }, deps());
    const streamId = pairStream(run.state, "a", "gpt-5-mini");
    const replay = { type: "RecordReplay", run_id: "r1", scenario_key: "a", model_label: "gpt-5-mini", replay: { answer: "hi" } };
    const racer = (answer: string) => () =>
      racingWrite(streamId, [{ type: "ReplayRecorded", data: { run_id: "r1", n: 0, scenario_key: "a", model_label: "gpt-5-mini", replay: { answer } } }]);
    store.interleave(racer("other"));
    const calls = store.appendCalls;
    const attempt = handleCommand(store, resultAggregate, streamId, replay, { ...deps(), decideContext: { run: run.state } });
    await expect(attempt).rejects.toBeInstanceOf(DomainError);
    await expect(attempt).rejects.toThrow("pair a × gpt-5-mini of run r1 is already recorded with a different replay");
    expect(store.appendCalls).toBe(calls + 1);
    // The racer sent the same replay: this one answers as recorded, appending nothing more.
    const other = pairStream(run.state, "b", "gpt-5-mini");
    const same = { ...replay, scenario_key: "b" };
    store.interleave(() => racingWrite(other, [{ type: "ReplayRecorded", data: { run_id: "r1", n: 1, scenario_key: "b", model_label: "gpt-5-mini", replay: { answer: "hi" } } }]));
    const handled = await handleCommand(store, resultAggregate, other, same, { ...deps(), decideContext: { run: run.state } });
    expect(handled).toMatchObject({ events: [], position: null, attempts: 2, version: 0n });
    expect((await store.readStream(other)).length).toBe(1);
  });

  it("reads old event versions through their upcasters", async () => {
    const v1 = toEventsToAppend([{ type: "RunFailed", data: { message: "x" } }], { tenant: "acme", actor: "a" }, { clock: fixedClock(), ids: sequentialIds() });
    store.appendNow("run-old", [{ ...v1[0], type: "RunStarted", schemaVersion: 1, data: legacyRunStarted() }]);
    const handled = await handleCommand(store, runAggregate, "run-old", { type: "FailRun", run_id: "old", message: "watchdog: no progress" }, deps());
    expect(handled.state.started?.release).toBeNull();
    expect(handled.state.status).toBe("failed");
  });
});

describe("startRun across the evaluation and run streams", () => {
  beforeEach(async () => {
    await handleCommand(store, evaluationAggregate, EVAL, create, deps());
  });

  it("numbers runs in the evaluation and freezes the selection on the run stream", async () => {
    const first = await startRun(store, { run_id: "r1", evaluation_id: "e1", models: [GPT, CLAUDE] }, deps());
    const second = await startRun(store, { run_id: "r2", evaluation_id: "e1", models: [GPT], keys: ["b"] }, deps());
    expect(first.run.domainEvents[0]).toMatchObject({ type: "RunStarted", data: { number: 1, selection: { scenario_keys: ["a", "b"] } } });
    expect(second.run.domainEvents[0]).toMatchObject({ type: "RunStarted", data: { number: 2, selection: { scenario_keys: ["b"] } } });
    expect(first.run.events[0].streamId).toBe("run-r1");
    expect(first.run.state.pairs).toHaveLength(4);
  });

  it("a concurrent start takes the next number on retry", async () => {
    store.interleave(() => racingWrite(EVAL, [{ type: "RunScheduled", data: { run_id: "other", number: 1, origin: "engine" } }]));
    const { evaluation, run } = await startRun(store, { run_id: "r1", evaluation_id: "e1", models: [GPT] }, deps());
    expect(evaluation.attempts).toBe(2);
    expect(run.domainEvents[0]).toMatchObject({ data: { number: 2 } });
  });

  it("an evaluation that keeps moving still ends in a conflict, after CONTENDED_RETRIES jittered pauses, in bounded time", async () => {
    // One racing write before each append: the first attempt appends the meter (usage stream) before the evaluation.
    for (let n = 1; n <= CONTENDED_RETRIES + 2; n++) {
      store.interleave(() => racingWrite(EVAL, [{ type: "RunScheduled", data: { run_id: `other-${n}`, number: n, origin: "engine" } }]));
    }
    const bound = Array.from({ length: CONTENDED_RETRIES }, (_, i) => pauseCeilingMs(i + 1)).reduce((a, b) => a + b, 0);
    expect(bound).toBeLessThan(1500);
    const started = Date.now();
    await expect(startRun(store, { run_id: "r1", evaluation_id: "e1", models: [GPT] }, deps())).rejects.toThrow(
      new RegExp(`StartRun on evaluation-e1 lost a concurrent write after ${CONTENDED_RETRIES + 1} attempt\\(s\\)`),
    );
    expect(Date.now() - started).toBeLessThan(bound + 500);
    expect(store.log.some((e) => e.streamId === "run-r1")).toBe(false);
  });

  it("an empty selection writes nothing on either stream", async () => {
    const before = store.log.length;
    await expect(startRun(store, { run_id: "r1", evaluation_id: "e1", models: [GPT], group: "nope" }, deps())).rejects.toThrow(/No scenarios selected/);
    expect(store.log).toHaveLength(before);
  });

  it("a run the run stream refuses (its snapshot over the 8 MB event limit) writes nothing on either stream, and takes no number", async () => {
    const long = Array.from({ length: 140 }, (_, i) => ({ ...scenario(`big${i}`), prompt: `Question ${i}: ${"details ".repeat(8000)}` }));
    for (let at = 0; at < long.length; at += 10) {
      await handleCommand(store, evaluationAggregate, EVAL, { type: "MergeScenarios", evaluation_id: "e1", scenarios: long.slice(at, at + 10), limit: 2000 }, deps());
    }
    const before = store.log.length;
    await expect(startRun(store, { run_id: "r1", evaluation_id: "e1", models: [GPT] }, deps())).rejects.toThrow(/over the 8 MB limit/);
    expect(store.log).toHaveLength(before);
    const fits = await startRun(store, { run_id: "r2", evaluation_id: "e1", models: [GPT], keys: ["a"] }, deps());
    expect(fits.run.domainEvents[0]).toMatchObject({ data: { number: 1 } });
  });

  it("a start racing the same run id on the run stream is answered by the run stream: already exists", async () => {
    // The same run started by another process, landing between this start's two appends.
    const elsewhere = new InMemoryEventStore();
    await handleCommand(elsewhere, evaluationAggregate, EVAL, create, deps());
    const raced = await startRun(elsewhere, { run_id: "r1", evaluation_id: "e1", models: [GPT] }, deps());
    store.interleave(() => undefined);
    store.interleave(() => store.appendNow("run-r1", raced.run.events.map(({ streamId: _s, streamVersion: _v, ...event }) => event)));
    await expect(startRun(store, { run_id: "r1", evaluation_id: "e1", models: [GPT] }, deps())).rejects.toThrow(/run r1 already exists/);
  });

  it("replay, score and complete: the whole happy path of an external run", async () => {
    const { run } = await startRun(store, { run_id: "r1", evaluation_id: "e1", models: [GPT], external: true }, deps());
    for (const key of ["a", "b"]) {
      const streamId = pairStream(run.state, key, "gpt-5-mini");
      const pair = { run_id: "r1", scenario_key: key, model_label: "gpt-5-mini" };
      const opts = { ...deps(), decideContext: { run: run.state } };
      await handleCommand(store, resultAggregate, streamId, { type: "RecordReplay", ...pair, replay: { answer: "ok" } }, opts);
      await handleCommand(store, resultAggregate, streamId, { type: "ScoreResult", ...pair, status: "passed", score: 1, scores: {}, pass: true }, opts);
    }
    const results = ["a", "b"].map((k) => ({ scenario_key: k, model_label: "gpt-5-mini", pass: true }));
    const done = await handleCommand(store, runAggregate, "run-r1", { type: "CompleteRun", run_id: "r1", results }, deps());
    expect(done.domainEvents).toEqual([{ type: "RunCompleted", data: { scored: 2, passed: 2, summary: {} } }]);
    expect(store.log.filter((e) => e.streamId.startsWith("result-r1.")).map((e) => e.streamId)).toEqual([
      "result-r1.0",
      "result-r1.0",
      "result-r1.1",
      "result-r1.1",
    ]);
  });
});

/** A version-1 envelope of evaluation e1 (tenant acme) under the host's `runId`. */
const envelopeOf = (runId: string, digest = DIGEST_A) => ({
  run_id: runId,
  evaluation_id: "e1",
  tenant: "acme",
  source: "ci",
  agent_name: "SupportAgent",
  suite: "support",
  digest,
  report: { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results: [{ scenario_key: "a", label: "gpt-5-mini", status: "passed" }] },
});

describe("importReport", () => {
  const envelope = (digest = DIGEST_A) => envelopeOf("ext-1", digest);

  beforeEach(async () => {
    await handleCommand(store, evaluationAggregate, EVAL, create, deps());
  });

  it("imports once; the same content again appends nothing; different content is a conflict", async () => {
    const first = await importReport(store, envelope(), deps());
    expect(first.run.domainEvents[0]).toMatchObject({ type: "ReportImported", data: { number: 1 } });
    const size = store.log.length;
    const again = await importReport(store, envelope(), deps());
    expect(again.run.events).toEqual([]);
    expect(again.evaluation.events).toEqual([]);
    expect(store.log).toHaveLength(size);
    await expect(importReport(store, envelope(DIGEST_B), deps())).rejects.toThrow(
      expect.objectContaining({ code: "conflict", message: "run_id already exists with a different report" }),
    );
    expect(store.log).toHaveLength(size);
  });

  it("an invalid report is VALIDATION naming its field under a run_id imported before, as under a new one, not a conflict", async () => {
    await importReport(store, envelope(), deps());
    const size = store.log.length;
    const invalid = (runId: string) => ({ ...envelopeOf(runId, DIGEST_B), report: { ...envelope().report, results: [{ label: "gpt-5-mini", status: "passed" }] } });
    const refusal = expect.objectContaining({
      code: "validation",
      field: "report.results[0].scenario_key",
      message: "report.results[0].scenario_key is required: the key of the scenario the result is for",
    });
    await expect(importReport(store, invalid("ext-2"), deps())).rejects.toThrow(refusal);
    await expect(importReport(store, invalid("ext-1"), deps())).rejects.toThrow(refusal);
    expect(store.log).toHaveLength(size);
  });

  it("a report stored by an older build under looser rules (threshold 70) re-sent unchanged is a duplicate: nothing appended, no VALIDATION", async () => {
    // What an older build appended: the run scheduled on the evaluation, the report as sent.
    const id = importedRunId("acme", "ext-1");
    const old = { ...envelope(), report: { ...envelope().report, threshold: 70 } };
    racingWrite(EVAL, [{ type: "RunScheduled", data: { run_id: id, number: 1, origin: "imported" } }]);
    racingWrite(`run-${id}`, [{ type: "ReportImported", data: { ...old, run_id: id, host_run_id: "ext-1", number: 1 } }]);
    const size = store.log.length;
    const again = await importReport(store, old, deps());
    expect([again.run.events, again.evaluation.events]).toEqual([[], []]);
    expect(again.run.state).toMatchObject({ runId: id, status: "complete" });
    expect(store.log).toHaveLength(size);
    // Changed (another digest), it is still refused naming the field, not a conflict.
    await expect(importReport(store, { ...old, digest: DIGEST_B }, deps())).rejects.toThrow(
      expect.objectContaining({ code: "validation", field: "report.threshold" }),
    );
    expect(store.log).toHaveLength(size);
  });

  it("an engine run's own export (run_id = the run's id) imports as a copy under the derived id, numbered next; again, it is a duplicate", async () => {
    const started = await startRun(store, { run_id: "ext-1", evaluation_id: "e1", models: [GPT] }, deps());
    const runEvents = store.log.filter((e) => e.streamId === "run-ext-1").length;
    const copy = await importReport(store, envelope(), deps());
    expect(copy.run.streamId).toBe(`run-${importedRunId("acme", "ext-1")}`);
    expect(copy.run.domainEvents[0]).toMatchObject({ type: "ReportImported", data: { number: started.run.state.started!.number + 1, host_run_id: "ext-1" } });
    expect(store.log.filter((e) => e.streamId === "run-ext-1")).toHaveLength(runEvents);
    const again = await importReport(store, envelope(), deps());
    expect([again.run.events, again.evaluation.events]).toEqual([[], []]);
  });

  it("keys the run by (tenant, run_id): its stream and both events carry the derived id, ReportImported the host's too", async () => {
    const { evaluation, run } = await importReport(store, envelope(), deps());
    const id = importedRunId("acme", "ext-1");
    expect(id).toMatch(/^imp-[0-9a-f]{32}$/);
    expect(run.streamId).toBe(`run-${id}`);
    expect(run.domainEvents[0]).toMatchObject({ type: "ReportImported", data: { run_id: id, host_run_id: "ext-1", tenant: "acme" } });
    expect(evaluation.domainEvents).toEqual([{ type: "RunScheduled", data: { run_id: id, number: 1, origin: "imported" } }]);
    expect(run.state).toMatchObject({ runId: id, hostRunId: "ext-1", tenant: "acme" });
    expect(await store.readStream("run-ext-1")).toEqual([]);
  });

  it("another tenant importing the same run_id gets its own run; the first tenant's is untouched", async () => {
    const first = await importReport(store, envelope(), deps());
    const acmeRun = await store.readStream(first.run.streamId);
    await handleCommand(store, evaluationAggregate, "evaluation-e2", { ...create, evaluation_id: "e2", tenant: "globex" }, deps());
    const globexDeps = { ...deps(), context: { tenant: "globex", actor: "user-2" } };
    // Different content, even: it is another tenant's run, so it is not a conflict with acme's.
    const second = await importReport(store, { ...envelope(DIGEST_B), evaluation_id: "e2", tenant: "globex" }, globexDeps);
    expect(second.run.domainEvents[0]).toMatchObject({ type: "ReportImported", data: { run_id: importedRunId("globex", "ext-1"), host_run_id: "ext-1", number: 1 } });
    expect(second.run.streamId).not.toBe(first.run.streamId);
    expect(await store.readStream(first.run.streamId)).toEqual(acmeRun);
    // Each tenant's retry still answers from its own run.
    expect((await importReport(store, envelope(), deps())).run.events).toEqual([]);
    expect((await importReport(store, { ...envelope(DIGEST_B), evaluation_id: "e2", tenant: "globex" }, globexDeps)).run.events).toEqual([]);
  });

  it("the same run_id into another evaluation of the same tenant is still a conflict, named by the host's id", async () => {
    await importReport(store, envelope(), deps());
    await handleCommand(store, evaluationAggregate, "evaluation-e2", { ...create, evaluation_id: "e2" }, deps());
    const size = store.log.length;
    await expect(importReport(store, { ...envelope(), evaluation_id: "e2" }, deps())).rejects.toThrow(
      expect.objectContaining({ code: "conflict", message: "run ext-1 already exists" }),
    );
    expect(store.log).toHaveLength(size);
  });

  it("a run imported before tenant keying (stream run-<run_id>, no host_run_id) still answers its tenant's retries", async () => {
    const number = { type: "RunScheduled", data: { run_id: "ext-1", number: 1, origin: "imported" } } as const;
    racingWrite(EVAL, [number]);
    const { type: _t, ...data } = { ...envelope(), type: "ImportReport", number: 1 };
    const [recorded] = toEventsToAppend([{ type: "ReportImported", data }], { tenant: "acme", actor: "old" }, { clock: fixedClock(), ids: sequentialIds("old-") });
    delete (recorded.data as Record<string, unknown>).host_run_id; // as recorded before the field existed
    store.appendNow("run-ext-1", [recorded]);
    const size = store.log.length;
    const again = await importReport(store, envelope(), deps());
    expect(again.run).toMatchObject({ streamId: "run-ext-1", events: [], state: { runId: "ext-1", hostRunId: null, tenant: "acme" } });
    expect(store.log).toHaveLength(size);
    await expect(importReport(store, envelope(DIGEST_B), deps())).rejects.toThrow("run_id already exists with a different report");
    // Another tenant's old run is not this tenant's: its import is its own run, keyed as any other.
    await handleCommand(store, evaluationAggregate, "evaluation-e2", { ...create, evaluation_id: "e2", tenant: "globex" }, deps());
    const globex = await importReport(store, { ...envelope(), evaluation_id: "e2", tenant: "globex" }, { ...deps(), context: { tenant: "globex", actor: "u" } });
    expect(globex.run.streamId).toBe(`run-${importedRunId("globex", "ext-1")}`);
  });
});

describe("importReport: the envelope's run_id is the host's text, not a stream id", () => {
  const envelope = envelopeOf;

  beforeEach(async () => {
    await handleCommand(store, evaluationAggregate, EVAL, create, deps());
  });

  it.each(["nightly-2025.06.01", "gh/1234/1", "dashboard-run-7-2025-06-01T10:00:00.000Z", "run 42 (retry)", "x".repeat(255), "nächtlich-✓"])(
    "imports %s under the derived id, keeps it as host_run_id, answers a retry as a duplicate and other content as a conflict",
    async (hostRunId) => {
      const first = await importReport(store, envelope(hostRunId), deps());
      const id = importedRunId("acme", hostRunId);
      expect(first.run.streamId).toBe(`run-${id}`);
      expect(first.run.domainEvents[0]).toMatchObject({ type: "ReportImported", data: { run_id: id, host_run_id: hostRunId, number: 1 } });
      expect(first.run.state).toMatchObject({ runId: id, hostRunId });
      const size = store.log.length;
      const again = await importReport(store, envelope(hostRunId), deps());
      expect([again.run.events, again.evaluation.events]).toEqual([[], []]);
      await expect(importReport(store, envelope(hostRunId, DIGEST_B), deps())).rejects.toThrow(
        expect.objectContaining({ code: "conflict", message: "run_id already exists with a different report" }),
      );
      expect(store.log).toHaveLength(size);
    },
  );

  it.each([
    ["", "must be 1-255 characters, not blank (got 0 blank)"],
    ["   ", "must be 1-255 characters, not blank (got 3 blank)"],
    ["x".repeat(256), "must be 1-255 characters, not blank (got 256)"],
    ["nightly\n42", "must not contain control characters (U+000A at index 7)"],
    ["a\u0000b", "must not contain control characters (U+0000 at index 1)"],
    ["a\ud800b", "must not contain a NUL character (\\u0000) or an unpaired surrogate"],
  ])("refuses run_id %j with VALIDATION naming run_id, writing nothing", async (hostRunId, rule) => {
    const size = store.log.length;
    await expect(importReport(store, envelope(hostRunId), deps())).rejects.toThrow(
      expect.objectContaining({ code: "validation", field: "run_id", message: `command is invalid: run_id: ${rule}` }),
    );
    expect(store.log).toHaveLength(size);
  });
});

describe("importedRunId", () => {
  it("is a valid id, the same for the same pair, different for another tenant or run_id, unambiguous at the separator", () => {
    const id = importedRunId("acme", "nightly-42");
    expect(isValidId(id)).toBe(true);
    expect(importedRunId("acme", "nightly-42")).toBe(id);
    expect(importedRunId("globex", "nightly-42")).not.toBe(id);
    expect(importedRunId("acme", "nightly-43")).not.toBe(id);
    expect(importedRunId("ab", "c")).not.toBe(importedRunId("a", "bc"));
  });
});

function legacyRunStarted() {
  return {
    run_id: "old",
    evaluation_id: "e1",
    tenant: "acme",
    number: 1,
    external: false,
    selection: { keys: null, group: null, scenario_keys: ["a"], model_labels: ["gpt-5-mini"] },
    scenarios: [{ key: "a", prompt: "p" }],
    models: [GPT],
    criteria: [],
    judge: { kind: "rules", model: null },
    judge_label: null,
    threshold: 0.7,
    metadata: {},
    tools: [],
    catalog: null,
  };
}
