import { describe, expect, it } from "vitest";
import { resultAggregate, pairStream } from "./resultAggregate.js";
import { runAggregate } from "../run/runAggregate.js";
import { given } from "../testing/givenWhenThen.js";
import { runStarted } from "../testing/fixtures.js";
import type { EventInput } from "../../events/registry.js";

const run = given(runAggregate, [runStarted()]).state;
const finishedRun = given(runAggregate, [runStarted(), { type: "RunFailed", data: { message: "x" } }]).state;
const completedRun = given(runAggregate, [runStarted(), { type: "RunCompleted", data: { scored: 4, passed: 4, summary: {} } }]).state;
const stream = "result-r1.3"; // b × claude-sonnet-5

const replay = { type: "RecordReplay", run_id: "r1", scenario_key: "b", model_label: "claude-sonnet-5", replay: { answer: "Order 4821 ships today.", duration_ms: 900 } };
const replayed: EventInput = {
  type: "ReplayRecorded",
  data: { run_id: "r1", n: 3, scenario_key: "b", model_label: "claude-sonnet-5", replay: { answer: "Order 4821 ships today." } },
};
const score = {
  type: "ScoreResult",
  run_id: "r1",
  scenario_key: "b",
  model_label: "claude-sonnet-5",
  status: "failed",
  score: 0.5,
  scores: { expected_tools: 0, response_present: 1 },
  pass: false,
  fault: "expected_tool_not_called",
  recommendation: "Enable lookup_order for the agent.",
  judge_exchanges: [{ kind: "score", prompt_digest: "d1", raw_answer: '{"score": 0.4}', parsed: { score: 0.4 }, usage: { input_tokens: 400, output_tokens: 20 } }],
};

describe("RecordReplay", () => {
  it("records a selected pair's replay once, with its index", () => {
    const [event] = given(resultAggregate, [], { run, streamId: stream }).when(replay);
    expect(event).toEqual({
      type: "ReplayRecorded",
      data: {
        run_id: "r1",
        n: 3,
        scenario_key: "b",
        model_label: "claude-sonnet-5",
        replay: { answer: "Order 4821 ships today.", duration_ms: 900, tool_calls: [], metadata: {} },
      },
    });
  });

  it("records a NUL or an unpaired surrogate in what the agent or the judge said as U+FFFD (PostgreSQL stores neither)", () => {
    const raw = { ...replay, replay: { answer: "Order\u0000 4821 😀 \ud83d", error: null, tool_calls: [{ name: "lookup\u0000", arguments: { ["q\ude00"]: "x" } }] } };
    const [event] = given(resultAggregate, [], { run, streamId: stream }).when(raw);
    expect((event.data as { replay: unknown }).replay).toMatchObject({ answer: "Order\ufffd 4821 😀 \ufffd", tool_calls: [{ name: "lookup\ufffd", arguments: { "q\ufffd": "x" } }] });
    const judged = { ...score, judge_exchanges: [{ ...score.judge_exchanges[0], raw_answer: '{"score": 0.4}\u0000' }] };
    const [scored] = given(resultAggregate, [replayed], { run, streamId: stream }).when(judged);
    expect((scored.data as { judge_exchanges: Array<{ raw_answer: string }> }).judge_exchanges[0].raw_answer).toBe('{"score": 0.4}\ufffd');
  });

  it("refuses costs, token counts and durations past what a run's sums can hold, naming the field", () => {
    const g = given(resultAggregate, [], { run, streamId: stream });
    const withFigures = (figures: Record<string, unknown>) => ({ ...replay, replay: { ...replay.replay, ...figures } });
    expect(() => g.when(withFigures({ cost: 1.7e308 }))).toThrow(expect.objectContaining({ code: "validation", field: "replay.cost", message: expect.stringContaining("must be at most 1000000000 (USD)") }));
    expect(() => g.when(withFigures({ input_tokens: 2 ** 53 }))).toThrow(expect.objectContaining({ field: "replay.input_tokens" }));
    expect(() => g.when(withFigures({ duration_ms: 1e300 }))).toThrow(expect.objectContaining({ field: "replay.duration_ms" }));
    // What older versions stored and still read (an epoch timestamp as a duration) is refused as new input.
    expect(() => g.when(withFigures({ duration_ms: 1e13 }))).toThrow(expect.objectContaining({ field: "replay.duration_ms", message: expect.stringContaining("must be at most 1000000000000 ms") }));
    expect(() => g.when(withFigures({ output_tokens: 5e12 }))).toThrow(expect.objectContaining({ field: "replay.output_tokens" }));
    expect(() => g.when(withFigures({ cost: 3e9 }))).toThrow(expect.objectContaining({ field: "replay.cost" }));
    expect(g.when(withFigures({ cost: 1e9, input_tokens: 1e12, output_tokens: 0, duration_ms: 1e12 }))[0].type).toBe("ReplayRecorded");
    const judged = { ...score, judge_exchanges: [{ ...score.judge_exchanges[0], usage: { cost: 1e308 } }] };
    expect(() => given(resultAggregate, [replayed], { run, streamId: stream }).when(judged)).toThrow(expect.objectContaining({ field: "judge_exchanges[0].usage.cost" }));
  });

  it("takes the same replay again as a no-op, recorded or scored, and however its JSON is ordered", () => {
    const [recorded] = given(resultAggregate, [], { run, streamId: stream }).when(replay);
    expect(given(resultAggregate, [recorded], { run, streamId: stream }).when(replay)).toEqual([]);
    const [scored] = given(resultAggregate, [recorded], { run, streamId: stream }).when(score);
    expect(given(resultAggregate, [recorded, scored], { run, streamId: stream }).when(replay)).toEqual([]);
    // Keys in another order (as jsonb gives them back), nulls for absent fields, defaults spelled out.
    const reordered = { ...replay, replay: { duration_ms: 900, error: null, cost: null, metadata: {}, tool_calls: [], answer: "Order 4821 ships today." } };
    expect(given(resultAggregate, [recorded], { run, streamId: stream }).when(reordered)).toEqual([]);
    // Text recorded as U+FFFD is the same text sent again with its NUL.
    const raw = { ...replay, replay: { answer: "Order\u0000 4821", tool_calls: [{ name: "lookup", arguments: { id: "4821" }, detail: null }] } };
    const [cleaned] = given(resultAggregate, [], { run, streamId: stream }).when(raw);
    expect(given(resultAggregate, [cleaned], { run, streamId: stream }).when(raw)).toEqual([]);
  });

  it("takes the same replay again as a no-op after the run ended, and refuses a different one or a new pair as before", () => {
    // A host retrying a request whose answer it lost gets the idempotent answer whatever the run's state since.
    const [recorded] = given(resultAggregate, [], { run, streamId: stream }).when(replay);
    const [scored] = given(resultAggregate, [recorded], { run, streamId: stream }).when(score);
    for (const ended of [completedRun, finishedRun]) {
      expect(given(resultAggregate, [recorded], { run: ended, streamId: stream }).when(replay), ended.status).toEqual([]);
      expect(given(resultAggregate, [recorded, scored], { run: ended, streamId: stream }).when(replay), ended.status).toEqual([]);
      const refusal = `run r1 is ${ended.status}; it takes no more results`;
      const different = { ...replay, replay: { ...replay.replay, answer: "Order 4821 ships tomorrow." } };
      expect(() => given(resultAggregate, [recorded], { run: ended, streamId: stream }).when(different)).toThrow(expect.objectContaining({ code: "conflict", message: refusal }));
      expect(() => given(resultAggregate, [], { run: ended, streamId: stream }).when(replay)).toThrow(expect.objectContaining({ code: "conflict", message: refusal }));
    }
  });

  it("refuses a second, different replay of the pair as a duplicate, whatever field differs", () => {
    const [recorded] = given(resultAggregate, [], {
      run,
      streamId: stream,
    }).when({ ...replay, replay: { ...replay.replay, tool_calls: [{ name: "lookup", arguments: { id: "4821", note: null } }], metadata: { trace: "t1" }, input_tokens: 10, output_tokens: 5, cost: 0.01 } });
    const g = given(resultAggregate, [recorded], { run, streamId: stream });
    const base = (recorded.data as { replay: Record<string, unknown> }).replay;
    const changes: Array<Record<string, unknown>> = [
      { answer: "Order 4821 ships tomorrow." },
      { answer: null },
      { tool_calls: [] },
      { tool_calls: [{ name: "lookup", arguments: { id: "4822", note: null } }] },
      { tool_calls: [{ name: "lookup", arguments: { id: "4821" } }] }, // null inside arguments counts
      { tool_calls: [{ name: "lookup", arguments: { id: "4821", note: null }, error: "timeout" }] },
      { duration_ms: 901 },
      { input_tokens: 11 },
      { output_tokens: null },
      { cost: 0.02 },
      { error: "agent crashed" },
      { metadata: { trace: "t2" } },
      { metadata: {} },
    ];
    for (const change of changes) {
      expect(() => g.when({ ...replay, replay: { ...base, ...change } }), JSON.stringify(change)).toThrow(
        expect.objectContaining({
          code: "conflict",
          field: "scenario_key",
          message: "pair b × claude-sonnet-5 of run r1 is already recorded with a different replay",
          problem: "duplicate",
          scenarioKey: "b",
          modelLabel: "claude-sonnet-5",
        }),
      );
    }
    expect(g.when({ ...replay, replay: base })).toEqual([]);
  });

  it("refuses a pair outside the selection as unknown, a wrong stream, an unknown or finished run", () => {
    expect(() => given(resultAggregate, [], { run, streamId: stream }).when({ ...replay, scenario_key: "z" })).toThrow(
      expect.objectContaining({ code: "validation", message: "pair z × claude-sonnet-5 is not in run r1's selection", problem: "unknown", scenarioKey: "z" }),
    );
    expect(() => given(resultAggregate, [], { run, streamId: "result-r1.0" }).when(replay)).toThrow(
      "pair b × claude-sonnet-5 belongs in stream result-r1.3, not result-r1.0",
    );
    expect(() => given(resultAggregate, [], { streamId: stream }).when(replay)).toThrow(expect.objectContaining({ code: "not_found" }));
    // As a handler gives it: the run's stream loaded, and empty.
    const none = given(runAggregate, []).state;
    expect(() => given(resultAggregate, [], { run: none, streamId: stream }).when(replay)).toThrow(expect.objectContaining({ code: "not_found", message: "run r1 not found" }));
    expect(() => given(resultAggregate, [], { run: finishedRun, streamId: stream }).when(replay)).toThrow("run r1 is failed; it takes no more results");
  });

  it("pairStream names the pair's stream", () => {
    expect(pairStream(run, "b", "claude-sonnet-5")).toBe(stream);
    expect(() => pairStream(run, "b", "gpt-4")).toThrow(/not in run r1's selection/);
  });
});

describe("ScoreResult", () => {
  it("scores a replayed pair with every judge exchange", () => {
    const [event] = given(resultAggregate, [replayed], { run, streamId: stream }).when(score);
    expect(event.type).toBe("ResultScored");
    expect(event.data).toMatchObject({ n: 3, status: "failed", pass: false, fault: "expected_tool_not_called", diagnosis: null });
    expect((event.data as { judge_exchanges: unknown[] }).judge_exchanges[0]).toMatchObject({ raw_answer: '{"score": 0.4}', trace_ids: [], error: null });
  });

  it("refuses scoring before the replay, and scoring twice", () => {
    expect(() => given(resultAggregate, [], { run, streamId: stream }).when(score)).toThrow("has no replay recorded yet");
    const [scored] = given(resultAggregate, [replayed], { run, streamId: stream }).when(score);
    expect(() => given(resultAggregate, [replayed, scored], { run, streamId: stream }).when(score)).toThrow("is already scored");
  });

  it("refuses an outcome that contradicts itself", () => {
    const g = given(resultAggregate, [replayed], { run, streamId: stream });
    expect(() => g.when({ ...score, pass: true })).toThrow("pass must be true exactly when status is passed");
    expect(() => g.when({ ...score, status: "passed", pass: true })).toThrow("a passed result has no fault");
    expect(() => g.when({ ...score, fault: null })).toThrow("a failed result names its fault");
    expect(() => g.when({ ...score, status: "errored" })).toThrow("an errored result carries fault run_error");
    expect(() => g.when({ ...score, score: 1.5 })).toThrow(expect.objectContaining({ field: "score" }));
  });
});
