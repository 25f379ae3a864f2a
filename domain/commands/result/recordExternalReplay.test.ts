import { beforeEach, describe, expect, it } from "vitest";
import { handleCommand, loadAggregate } from "../handleCommand.js";
import { startRun } from "../twoStreamCommands.js";
import { evaluationAggregate } from "../evaluation/evaluationAggregate.js";
import { runAggregate } from "../run/runAggregate.js";
import type { RunState } from "../run/runState.js";
import { InMemoryEventStore } from "../testing/inMemoryEventStore.js";
import { fixedClock, sequentialIds } from "../testing/fixed.js";
import { GPT, scenario } from "../testing/fixtures.js";
import { toEventsToAppend } from "../../events/toAppend.js";
import { runStream } from "../../events/streams.js";
import { recordExternalReplay } from "./recordExternalReplay.js";
import { PairRefused } from "./pairRefused.js";

let store: InMemoryEventStore;
let run: RunState;
const deps = () => ({ clock: fixedClock(), ids: sequentialIds(), context: { tenant: "acme", actor: "host" } });
const FAILURE = "The external run did not report every selected scenario and model exactly once";
const send = (scenario_key: string, replay: Record<string, unknown>, state = run) =>
  recordExternalReplay(store, state, { run_id: "r1", scenario_key, model_label: "gpt-5-mini", replay }, deps());
const runEvents = async () => (await store.readStream(runStream("r1"))).map((e) => e.type);

async function start(external: boolean): Promise<RunState> {
  await handleCommand(store, evaluationAggregate, "evaluation-e1", {
    type: "CreateEvaluation", evaluation_id: "e1", tenant: "acme", agent: "SupportAgent", name: "Support", scenarios: [scenario("a"), scenario("b")],
  }, deps());
  return (await startRun(store, { run_id: "r1", evaluation_id: "e1", models: [GPT], external }, deps())).run.state;
}

beforeEach(async () => {
  store = new InMemoryEventStore();
  run = await start(true);
});

describe("recordExternalReplay", () => {
  it("records a selected pair's replay, and takes the same replay again as a no-op", async () => {
    const first = await send("a", { answer: "Hello!", input_tokens: 12 });
    expect(first).toMatchObject({ refused: null, duplicate: false });
    expect(first.refused === null && first.result.events.map((e) => e.type)).toEqual(["ReplayRecorded"]);
    const appended = store.log.length;
    const again = await send("a", { input_tokens: 12, answer: "Hello!", error: null });
    expect(again).toMatchObject({ refused: null, duplicate: true, result: { events: [], position: null } });
    expect(store.log.length).toBe(appended);
    expect(await runEvents()).toEqual(["RunStarted"]);
  });

  it("records camelCase keys as the library reads them, and refuses an unknown key naming it, writing nothing", async () => {
    const sent = await send("a", { answer: "Shipped", toolCalls: [{ name: "lookup_order" }], durationMs: 900, inputTokens: 3 });
    expect(sent.refused === null && sent.result.state.replay).toMatchObject({ answer: "Shipped", tool_calls: [{ name: "lookup_order" }], duration_ms: 900, input_tokens: 3 });
    const appended = store.log.length;
    // A typo was dropped and the rest scored: an answer-less run_error the host never sent.
    await expect(send("b", { answr: "Cancelled" })).rejects.toMatchObject({
      code: "validation",
      field: "replay.answr",
      message: "replay.answr: unknown key (a replay's keys: answer, tool_calls, duration_ms, input_tokens, output_tokens, error, cost, metadata, or their camelCase)",
    });
    await expect(send("b", { answer: "x", tool_calls: [], toolCalls: [] })).rejects.toMatchObject({ field: "replay.toolCalls", message: expect.stringContaining("given twice (also as tool_calls)") });
    expect(store.log.length).toBe(appended);
    expect(await runEvents()).toEqual(["RunStarted"]);
  });

  it("fails the run for a pair outside the selection, naming it, and keeps what was recorded", async () => {
    await send("a", { answer: "Hello!" });
    const outcome = await send("z", { answer: "?" });
    expect(outcome.refused?.error).toMatchObject({
      code: "validation",
      field: "scenario_key",
      message: `pair z × gpt-5-mini is not in run r1's selection; run r1 failed: ${FAILURE}: unknown z × gpt-5-mini`,
    });
    expect(outcome.refused?.run.domainEvents).toEqual([
      { type: "RunFailed", data: { message: `${FAILURE}: unknown z × gpt-5-mini`, pairs: { missing: [], unknown: ["z × gpt-5-mini"], duplicate: [] } } },
    ]);
    expect(await runEvents()).toEqual(["RunStarted", "RunFailed"]);
    expect((await store.readStream("result-r1.0")).map((e) => e.type)).toEqual(["ReplayRecorded"]);
  });

  it("fails the run for a second, different replay of a recorded pair, keeping the first", async () => {
    await send("a", { answer: "Hello!" });
    const outcome = await send("a", { answer: "Hello there!" });
    expect(outcome.refused?.error).toMatchObject({
      code: "conflict",
      message: `pair a × gpt-5-mini of run r1 is already recorded with a different replay; run r1 failed: ${FAILURE}: duplicate a × gpt-5-mini`,
    });
    expect(await runEvents()).toEqual(["RunStarted", "RunFailed"]);
    const recorded = await store.readStream("result-r1.0");
    expect(recorded.map((e) => [e.type, (e.data as { replay: { answer: string } }).replay.answer])).toEqual([["ReplayRecorded", "Hello!"]]);
  });

  it("fails the run once when refused results race: the loser decides again and finds it failed", async () => {
    const [racing] = toEventsToAppend([{ type: "RunFailed", data: { message: `${FAILURE}: unknown y × gpt-5-mini` } }], { tenant: "acme", actor: "racer" }, { clock: fixedClock(), ids: sequentialIds("racer-") });
    store.interleave(() => store.appendNow(runStream("r1"), [racing]));
    const outcome = await send("z", { answer: "?" });
    expect(outcome.refused?.error.message).toBe("pair z × gpt-5-mini is not in run r1's selection; run r1 is failed");
    expect(outcome.refused?.run).toMatchObject({ events: [], attempts: 2 });
    expect(await runEvents()).toEqual(["RunStarted", "RunFailed"]);
    // Concurrent different replays of one pair: the second loses the "no stream" race, decides
    // again, and fails the run; the first stays recorded.
    store = new InMemoryEventStore();
    run = await start(true);
    const [one, two] = await Promise.all([send("b", { answer: "one" }), send("b", { answer: "two" })]);
    expect([one.refused, two.refused].filter(Boolean)).toHaveLength(1);
    expect(await runEvents()).toEqual(["RunStarted", "RunFailed"]);
    expect(await store.readStream("result-r1.1")).toHaveLength(1);
  });

  it("leaves a run that has ended as it is", async () => {
    await handleCommand(store, runAggregate, runStream("r1"), { type: "FailRun", run_id: "r1", message: "stopped" }, deps());
    const ended = (await loadAggregate(store, runAggregate, runStream("r1"))).state;
    const appended = store.log.length;
    const outside = await send("z", { answer: "?" }, ended);
    expect(outside.refused?.error).toMatchObject({ code: "validation", message: "pair z × gpt-5-mini is not in run r1's selection; run r1 is failed" });
    await expect(send("a", { answer: "Hello!" }, ended)).rejects.toThrow("run r1 is failed; it takes no more results");
    expect(store.log.length).toBe(appended);
  });

  it("throws what is not a refused pair, and an engine run's refusal, writing nothing", async () => {
    const appended = store.log.length;
    await expect(send("a", { answer: "x", input_tokens: -1 })).rejects.toThrow(expect.objectContaining({ code: "validation", field: "replay.input_tokens" }));
    expect(store.log.length).toBe(appended);
    store = new InMemoryEventStore();
    run = await start(false);
    await expect(send("z", { answer: "?" })).rejects.toBeInstanceOf(PairRefused);
    expect(await runEvents()).toEqual(["RunStarted"]);
  });
});
