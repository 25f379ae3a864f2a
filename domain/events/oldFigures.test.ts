// Figures an earlier version stored past today's limits (b542a0f bounded them) still read back,
// and only new events and commands are held to the limits.
import { describe, expect, it } from "vitest";
import type { RecordedEvent } from "../ports/eventStore.js";
import { fixedClock, sequentialIds } from "../commands/testing/fixed.js";
import { eventRegistry } from "./registry.js";
import { toEventsToAppend } from "./toAppend.js";
import { UnreadableEventError } from "./unreadableEvent.js";

const pair = { run_id: "r1", n: 0, scenario_key: "a", model_label: "m" };
// A host that sent an epoch timestamp as a duration, and runaway counts and cost.
const huge = { answer: "ok", duration_ms: 1e13, input_tokens: 5e12, output_tokens: 5e12, cost: 3e9 };
const usage = { input_tokens: 5e12, output_tokens: 1, cost: 3e9 };
const exchange = { kind: "score", prompt_digest: "d", raw_answer: "{}", parsed: null, usage, trace_ids: [] };
const scenario = { key: "a", prompt: "p", position: 2 ** 40 };

function stored(type: string, data: Record<string, unknown>, streamId = "result-r1.0"): RecordedEvent {
  return { id: "x", type, schemaVersion: eventRegistry.currentVersion(type), data, metadata: {}, streamId, streamVersion: 0n, position: { commit: 7n, prepare: 7n }, recordedAt: new Date(0) };
}

const deps = { clock: fixedClock(), ids: sequentialIds() };
const append = (type: string, data: Record<string, unknown>) => () => toEventsToAppend([{ type, data } as never], { tenant: "acme", actor: "t" }, deps);

describe("figures recorded before their limits", () => {
  it("read back: a replay's duration, tokens and cost, a judge call's usage, a scenario's position", () => {
    expect(eventRegistry.parseRecorded(stored("ReplayRecorded", { ...pair, replay: huge })).data).toMatchObject({ replay: huge });
    const scored = { ...pair, status: "passed", score: 1, scores: {}, pass: true, fault: null, recommendation: null, diagnosis: null, judge_exchanges: [exchange] };
    expect(eventRegistry.parseRecorded(stored("ResultScored", scored)).data).toMatchObject({ judge_exchanges: [{ usage }] });
    const merged = { limit: 10, scenarios: [{ ...scenario, enabled: true }], added: ["a"], updated: [], unchanged: [] };
    expect(eventRegistry.parseRecorded(stored("ScenariosMerged", merged, "evaluation-e1")).data).toMatchObject({ scenarios: [{ position: 2 ** 40 }] });
  });

  it("are refused in a new event, naming the field", () => {
    expect(append("ReplayRecorded", { ...pair, replay: huge })).toThrow(expect.objectContaining({ code: "validation", message: expect.stringContaining("data.replay.duration_ms: must be at most 1000000000000 ms") }));
    expect(append("ReplayRecorded", { ...pair, replay: { cost: 3e9 } })).toThrow("data.replay.cost: must be at most 1000000000 (USD)");
    expect(append("ReplayRecorded", { ...pair, replay: { input_tokens: 5e12 } })).toThrow("data.replay.input_tokens: must be at most 1000000000000 tokens");
    const merged = { limit: 10, scenarios: [{ ...scenario, enabled: true }], added: ["a"], updated: [], unchanged: [] };
    expect(append("ScenariosMerged", merged)).toThrow("data.scenarios[0].position: must be at most 2147483647");
  });

  it("an event that does not read names its stream, version and log position", () => {
    const garbage = stored("ReplayRecorded", { nonsense: true });
    expect(() => eventRegistry.parseRecorded(garbage)).toThrow(UnreadableEventError);
    expect(() => eventRegistry.parseRecorded(garbage)).toThrow(/event ReplayRecorded v1 is invalid: .* \(stream result-r1\.0 at version 0, log position 7\/7\)/);
  });
});
