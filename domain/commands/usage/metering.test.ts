// startRun and importReport meter the tenant's month (usage-<tenant>.<YYYY-MM>) before the run
// exists, once per run, and refuse past the plan with nothing written (reference-platform #38).
import { beforeEach, describe, expect, it } from "vitest";
import { handleCommand } from "../handleCommand.js";
import { importReport, startRun } from "../twoStreamCommands.js";
import { evaluationAggregate } from "../evaluation/evaluationAggregate.js";
import { InMemoryEventStore } from "../testing/inMemoryEventStore.js";
import { fixedClock, sequentialIds } from "../testing/fixed.js";
import { CLAUDE, DIGEST_A, DIGEST_B, GPT, scenario } from "../testing/fixtures.js";
import { toEventsToAppend } from "../../events/toAppend.js";
import type { Plan } from "./plan.js";
import { METER_RETRIES } from "./runMeter.js";

const USAGE = "usage-acme.2026-11";
let store: InMemoryEventStore;
const deps = (plan?: Plan, at?: string) => ({ clock: fixedClock(at), ids: sequentialIds(), context: { tenant: "acme", actor: "user-1" }, plan });
const create = { type: "CreateEvaluation", evaluation_id: "e1", tenant: "acme", agent: "SupportAgent", name: "Support", scenarios: [scenario("a"), scenario("b"), scenario("c")] };
const start = (runId: string, extra: Record<string, unknown> = {}) => ({ run_id: runId, evaluation_id: "e1", models: [GPT, CLAUDE], ...extra });
const envelope = (digest = DIGEST_A) => ({
  run_id: "ext-1", evaluation_id: "e1", tenant: "acme", source: "ci", agent_name: "SupportAgent", suite: "support", digest,
  report: { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results: [{ scenario_key: "a", label: "gpt-5-mini", status: "passed" }] },
});

const usageEvents = () => store.log.filter((e) => e.streamId.startsWith("usage-")).map((e) => [e.streamId, e.data]);
const meter = (run_id: string, quantity: number, kind = "execution", month = "2026-11") => [`usage-acme.${month}`, { tenant: "acme", kind, quantity, run_id, evaluation_id: "e1", month }];

beforeEach(async () => {
  store = new InMemoryEventStore();
  await handleCommand(store, evaluationAggregate, "evaluation-e1", create, deps());
});

describe("startRun meters executions", () => {
  it("meters scenarios x models before the run exists: the meter is appended first, then RunScheduled, then RunStarted", async () => {
    const started = await startRun(store, start("r1"), deps());
    expect(usageEvents()).toEqual([meter("r1", 6)]);
    expect(started.usage?.state.used.execution).toBe(6);
    const order = store.log.slice(-3).map((e) => e.type);
    expect(order).toEqual(["UsageMetered", "RunScheduled", "RunStarted"]);
    await startRun(store, start("r2", { keys: ["a"], external: true }), deps());
    expect(usageEvents()).toEqual([meter("r1", 6), meter("r2", 2)]);
  });

  it("a StartRun retried with a run_id that already started meters nothing again", async () => {
    await startRun(store, start("r1"), deps());
    await expect(startRun(store, start("r1"), deps())).rejects.toThrow(/run r1 already exists/);
    expect(usageEvents()).toEqual([meter("r1", 6)]);
  });

  it("the crash window: metered, then the process died before the run; the retry starts it without metering again", async () => {
    store.interleave(() => undefined); // the meter's append
    store.interleave(() => {
      throw new Error("connection lost"); // the evaluation's append
    });
    await expect(startRun(store, start("r1"), deps())).rejects.toThrow("connection lost");
    expect(usageEvents()).toEqual([meter("r1", 6)]);
    expect(store.log.some((e) => e.streamId === "run-r1")).toBe(false);
    const retried = await startRun(store, start("r1"), deps());
    expect(retried.run.domainEvents[0].type).toBe("RunStarted");
    expect(usageEvents()).toEqual([meter("r1", 6)]);
  });

  it("a start that lost the evaluation's race is decided again without metering twice", async () => {
    store.interleave(() => undefined);
    store.interleave(() => store.appendNow("evaluation-e1", toEventsToAppend([{ type: "RunScheduled", data: { run_id: "other", number: 1, origin: "engine" } }], { tenant: "acme", actor: "racer" }, { clock: fixedClock(), ids: sequentialIds("racer-") })));
    const started = await startRun(store, start("r1"), deps());
    expect(started.run.domainEvents[0]).toMatchObject({ data: { number: 2 } });
    expect(usageEvents()).toEqual([meter("r1", 6)]);
  });

  it("meters the month of the command's clock (UTC)", async () => {
    await startRun(store, start("r1"), deps(undefined, "2026-11-30T23:59:59.999Z"));
    await startRun(store, start("r2"), deps(undefined, "2026-12-01T00:00:00.000Z"));
    expect(usageEvents()).toEqual([meter("r1", 6), meter("r2", 6, "execution", "2026-12")]);
  });
});

describe("startRun refused by the plan writes nothing", () => {
  it("over the month's limit: PLAN_LIMIT_REACHED with the host fields, no stream touched", async () => {
    await startRun(store, start("r1"), deps({ executionsPerMonth: 10 }));
    const before = store.log.length;
    await expect(startRun(store, start("r2"), deps({ executionsPerMonth: 10 }))).rejects.toMatchObject({
      code: "plan_limit_reached", details: { kind: "execution", limit: 10, used: 6, requested: 6 },
    });
    expect(store.log).toHaveLength(before);
    // What still fits is admitted: 6 + 4 = 10.
    await startRun(store, start("r3", { keys: ["a", "b"] }), deps({ executionsPerMonth: 10 }));
    expect(usageEvents()).toEqual([meter("r1", 6), meter("r3", 4)]);
  });

  it("a start that lost the usage stream's race is decided again and refused when the other took what was left", async () => {
    const plan = { executionsPerMonth: 8 };
    // Another start meters 6 between this one's read and its append.
    store.interleave(() => store.appendNow(USAGE, toEventsToAppend([{ type: "UsageMetered", data: { tenant: "acme", kind: "execution", quantity: 6, run_id: "other", evaluation_id: "e1", month: "2026-11" } }], { tenant: "acme", actor: "racer" }, { clock: fixedClock(), ids: sequentialIds("racer-") })));
    const before = store.log.length;
    await expect(startRun(store, start("r1"), deps(plan))).rejects.toMatchObject({ code: "plan_limit_reached", details: { used: 6, requested: 6 } });
    expect(store.log).toHaveLength(before + 1); // the racer's meter only
  });

  it("execution disabled: EXECUTION_DISABLED before any read; creating an evaluation still works and meters nothing", async () => {
    const plan = { executionDisabled: true };
    const before = store.log.length;
    await expect(startRun(store, start("r1"), deps(plan))).rejects.toMatchObject({ code: "execution_disabled", message: "Agent execution is disabled on this dashboard (VERDICT_EXECUTION_DISABLED=true)" });
    expect(store.log).toHaveLength(before);
    await handleCommand(store, evaluationAggregate, "evaluation-e2", { ...create, evaluation_id: "e2", name: "Other" }, deps(plan));
    expect(usageEvents()).toEqual([]);
  });
});

describe("importReport meters a newly stored report", () => {
  it("meters evaluation_report x 1; an identical retry and a conflicting one meter nothing", async () => {
    const first = await importReport(store, envelope(), deps());
    const runId = first.run.state.runId as string;
    expect(usageEvents()).toEqual([meter(runId, 1, "evaluation_report")]);
    const again = await importReport(store, envelope(), deps());
    expect(again.run.events).toEqual([]);
    expect(again.usage).toBeNull();
    await expect(importReport(store, envelope(DIGEST_B), deps())).rejects.toThrow(/different report/);
    expect(usageEvents()).toEqual([meter(runId, 1, "evaluation_report")]);
  });

  it("past the report quota: REPORT_LIMIT_REACHED, nothing stored; executions do not count against it", async () => {
    await startRun(store, start("r1"), deps());
    const plan = { reportsPerMonth: 0, executionDisabled: true };
    const before = store.log.length;
    await expect(importReport(store, envelope(), deps(plan))).rejects.toMatchObject({ code: "report_limit_reached", details: { kind: "evaluation_report", limit: 0, used: 0, requested: 1 } });
    expect(store.log).toHaveLength(before);
    // execution disabled does not stop an import
    await importReport(store, envelope(), deps({ reportsPerMonth: 1, executionDisabled: true }));
    expect(usageEvents()).toHaveLength(2);
  });
});

describe("metering cost and contention (review of m1)", () => {
  const racerMeter = (run_id: string, version: bigint | "any" = "any") => () => store.appendNow(USAGE, toEventsToAppend([{ type: "UsageMetered", data: { tenant: "acme", kind: "execution", quantity: 1, run_id, evaluation_id: "e1", month: "2026-11" } }], { tenant: "acme", actor: "racer" }, { clock: fixedClock(), ids: sequentialIds(`${run_id}-`) }), version);

  it("a later start reads only the usage events appended since the one before, not the whole month", async () => {
    const reads: string[] = [];
    const readStream = store.readStream.bind(store);
    store.readStream = (streamId, options) => {
      if (streamId === USAGE) reads.push(String(options?.from));
      return readStream(streamId, options);
    };
    await startRun(store, start("r1"), deps());
    store.interleave(() => undefined); // a meter of another process, appended before r2 starts
    racerMeter("other")();
    await startRun(store, start("r2"), deps());
    expect(reads).toEqual(["start", "1"]);
    expect(usageEvents()).toEqual([meter("r1", 6), ["usage-acme.2026-11", { tenant: "acme", kind: "execution", quantity: 1, run_id: "other", evaluation_id: "e1", month: "2026-11" }], meter("r2", 6)]);
  });

  it("a race lost on the usage stream decides the meter again alone: it does not spend the evaluation's retries", async () => {
    store.interleave(racerMeter("other"));
    const reads: string[] = [];
    const readStream = store.readStream.bind(store);
    store.readStream = (streamId, options) => {
      reads.push(streamId);
      return readStream(streamId, options);
    };
    const started = await startRun(store, start("r1"), { ...deps(), retries: 0 });
    expect(started.usage?.state.used.execution).toBe(7);
    expect(reads.filter((s) => s === "evaluation-e1")).toHaveLength(1);
    expect(store.log.filter((e) => e.streamId === "run-r1")).toHaveLength(1);
  });

  it("races on the usage stream lost past its retries answer UNAVAILABLE (retry), not a conflict naming the stream, and write nothing", async () => {
    for (let i = 0; i <= METER_RETRIES; i++) store.interleave(racerMeter(`other${i}`));
    const before = store.log.length;
    const error = await startRun(store, start("r1"), deps()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "unavailable", message: expect.stringMatching(/retry/) });
    expect((error as Error).message).not.toMatch(/usage-/);
    expect(store.log).toHaveLength(before + METER_RETRIES + 1); // the racers' meters only
  }, 10_000);

  it("one StartRun decided again across midnight UTC meters one month, once", async () => {
    const clock = fixedClock("2026-11-30T23:59:59.990Z");
    const ticking = { now: () => { const at = clock.now(); clock.advance(20); return at; } };
    store.interleave(() => undefined); // the meter's append goes through
    store.interleave(() => store.appendNow("evaluation-e1", toEventsToAppend([{ type: "RunScheduled", data: { run_id: "other", number: 1, origin: "engine" } }], { tenant: "acme", actor: "racer" }, { clock: fixedClock(), ids: sequentialIds("racer-") })));
    await startRun(store, start("r1"), { ...deps(), clock: ticking });
    expect(usageEvents()).toEqual([meter("r1", 6)]);
  });

  it("a run id metered as a report is metered again as an execution: meters are keyed by (kind, run_id)", async () => {
    store.interleave(() => undefined);
    store.appendNow(USAGE, toEventsToAppend([{ type: "UsageMetered", data: { tenant: "acme", kind: "evaluation_report", quantity: 1, run_id: "r1", evaluation_id: "e1", month: "2026-11" } }], { tenant: "acme", actor: "x" }, { clock: fixedClock(), ids: sequentialIds("x-") }));
    const started = await startRun(store, start("r1"), deps());
    expect(started.usage?.state.used).toEqual({ execution: 6, evaluation_report: 1 });
  });
});
