import { describe, expect, it } from "vitest";
import type { RecordedEvent } from "../ports/eventStore.js";
import { fixedClock, sequentialIds } from "../commands/testing/fixed.js";
import { DomainError } from "./domainError.js";
import { eventRegistry, UnknownEventTypeError } from "./registry.js";
import { catalogStream, evaluationStream, resultStream, runStream } from "./streams.js";
import { MAX_EVENT_BYTES, toEventToAppend, toEventsToAppend } from "./toAppend.js";

const runStartedV1 = {
  run_id: "r1",
  evaluation_id: "e1",
  tenant: "acme",
  number: 1,
  external: false,
  selection: { keys: null, group: null, scenario_keys: ["a"], model_labels: ["gpt-5"] },
  scenarios: [{ key: "a", prompt: "Where is my order?" }],
  models: [{ label: "gpt-5", provider: "openai", model: "gpt-5" }],
  criteria: [],
  judge: { kind: "rules", model: null },
  judge_label: null,
  threshold: 0.7,
  metadata: {},
  tools: [],
  catalog: null,
};

function recorded(type: string, schemaVersion: number, data: Record<string, unknown>): RecordedEvent {
  return {
    id: "x",
    type,
    schemaVersion,
    data,
    metadata: {},
    streamId: "run-r1",
    streamVersion: 3n,
    position: { commit: 1n, prepare: 1n },
    recordedAt: new Date(0),
  };
}

describe("eventRegistry", () => {
  it("upcasts RunStarted v1 (no release) to the current v3 shape", () => {
    expect(eventRegistry.currentVersion("RunStarted")).toBe(3);
    const event = eventRegistry.parse("RunStarted", 1, runStartedV1);
    expect(event.type).toBe("RunStarted");
    if (event.type !== "RunStarted") throw new Error("type");
    expect(event.data.release).toBeNull();
    expect(event.data.agent).toBeNull();
    // schema defaults are applied to nested scenario data
    expect(event.data.scenarios[0].expected_tools).toEqual([]);
  });

  it("upcasts RunStarted v2 (no agent) to agent null: the run names no agent, as it was scored", () => {
    const release = { digest: "abc123def456", revision: "r9", label: "v3" };
    const event = eventRegistry.parse("RunStarted", 2, { ...runStartedV1, release });
    expect(event.type === "RunStarted" && event.data).toMatchObject({ release, agent: null });
  });

  it("reads AgentReleaseRecorded v1 without the manifest it carried, and writes v2 with none", () => {
    const release = { tenant: "acme", agent: "SupportAgent", version: 1, digest: "0123456789ab", revision: "r1", returned: false };
    expect(eventRegistry.currentVersion("AgentReleaseRecorded")).toBe(2);
    const old = eventRegistry.parse("AgentReleaseRecorded", 1, { ...release, manifest: { headers: [{ name: "Authorization", value: "Bearer sk-live-1" }] } });
    expect(old).toEqual({ type: "AgentReleaseRecorded", data: release });
    expect(eventRegistry.parse("AgentReleaseRecorded", 1, { ...release, manifest: null }).data).toEqual(release);
    // A v2 given a manifest anyway (a caller bypassing the decider) does not store it.
    const written = toEventToAppend({ type: "AgentReleaseRecorded", data: { ...release, manifest: { api: "sk-live-2" } } as never }, { tenant: "acme", actor: "t" }, { clock: fixedClock(), ids: sequentialIds() });
    expect([written.schemaVersion, written.data]).toEqual([2, release]);
  });

  it("reads the current version unchanged", () => {
    const release = { digest: "abc123def456", revision: "r9", label: "v3" };
    const event = eventRegistry.parse("RunStarted", 3, { ...runStartedV1, release, agent: "RevAgent" });
    expect(event.type === "RunStarted" && event.data).toMatchObject({ release, agent: "RevAgent" });
  });

  it("refuses a schema version newer than the code reads", () => {
    expect(() => eventRegistry.parse("RunStarted", 4, runStartedV1)).toThrow(/schema version 4 is not one this code reads \(1\.\.3\)/);
  });

  it("reports an unknown type read from the store with its stream and version", () => {
    const error = (() => {
      try {
        eventRegistry.parseRecorded(recorded("RunExploded", 1, {}));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(UnknownEventTypeError);
    expect((error as Error).message).toBe('unknown event type "RunExploded" in stream run-r1 at version 3 (log position 1/1)');
  });

  it("parses recorded events through upcasters", () => {
    const event = eventRegistry.parseRecorded(recorded("RunStarted", 1, runStartedV1));
    expect(event.type === "RunStarted" && event.data.release).toBeNull();
    const v2 = eventRegistry.parseRecorded(recorded("RunStarted", 2, { ...runStartedV1, release: null }));
    expect(v2.type === "RunStarted" && v2.data.agent).toBeNull();
  });

  it("reads a RunStarted or EvaluationCreated recorded before require_judge_scores as false, as it was scored", () => {
    // Added at the same version (session 44): stored events of every version lack it.
    for (const version of [1, 2, 3]) {
      const started = eventRegistry.parseRecorded(recorded("RunStarted", version, { ...runStartedV1, release: null, agent: null }));
      expect(started.type === "RunStarted" && started.data.require_judge_scores).toBe(false);
    }
    const evaluation = { evaluation_id: "e1", tenant: "acme", agent: "A", name: "N", judge: { kind: "llm", model: "m" }, criteria: [], threshold: 0.7, compare_models: [], catalog: null, external: null };
    const created = eventRegistry.parseRecorded(recorded("EvaluationCreated", 1, evaluation));
    expect(created.type === "EvaluationCreated" && created.data.require_judge_scores).toBe(false);
    const strict = eventRegistry.parseRecorded(recorded("EvaluationCreated", 1, { ...evaluation, require_judge_scores: true }));
    expect(strict.type === "EvaluationCreated" && strict.data.require_judge_scores).toBe(true);
    const frozen = eventRegistry.parse("RunStarted", 3, { ...runStartedV1, release: null, agent: null, require_judge_scores: true });
    expect(frozen.type === "RunStarted" && frozen.data.require_judge_scores).toBe(true);
  });

  it("lists every event type of the design", () => {
    expect(eventRegistry.types().sort()).toEqual(
      [
        "CatalogImported", "CatalogRemoved", "CatalogSetMaterialized", "CatalogSetSynced", "ComparisonRecorded", "EvaluationArchived", "EvaluationCreated", "EvaluationNameReserved",
        "EvaluationUnarchived", "ReplayRecorded", "ReportImported", "ResultScored", "RunCompleted",
        "RunCompletionRequested", "RunFailed", "RunRedriven", "RunScheduled", "RunStarted", "ScenariosMerged",
        "ScenariosReplaced", "VerdictRecorded", "AgentReleaseRecorded", "UsageMetered", "KpisDefined", "KpisCleared", "KpiAuthoringRecorded", "KpiAuthoringStarted",
      ].sort(),
    );
  });
});

describe("toEventToAppend", () => {
  const deps = () => ({ clock: fixedClock("2026-11-30T12:00:00.000Z"), ids: sequentialIds("id-") });
  const context = { tenant: "acme", actor: "user:1" };

  it("stamps id, schema version and metadata from the injected clock and ids", () => {
    const event = toEventToAppend({ type: "RunFailed", data: { message: "boom" } }, context, deps());
    expect(event).toEqual({
      id: "id-000000000001",
      type: "RunFailed",
      schemaVersion: 1,
      data: { message: "boom", pairs: null },
      metadata: {
        event_id: "id-000000000001",
        causation_id: null,
        correlation_id: "id-000000000001",
        tenant: "acme",
        actor: "user:1",
        recorded_at: "2026-11-30T12:00:00.000Z",
      },
    });
  });

  it("shares one correlation id across a batch and keeps a given causation", () => {
    const events = toEventsToAppend(
      [
        { type: "RunCompletionRequested", data: { scored: 2 } },
        { type: "RunFailed", data: { message: "x" } },
      ],
      { ...context, causationId: "cmd-7" },
      deps(),
    );
    expect(events.map((e) => e.metadata.correlation_id)).toEqual(["id-000000000001", "id-000000000001"]);
    expect(events.map((e) => e.metadata.causation_id)).toEqual(["cmd-7", "cmd-7"]);
  });

  it("refuses an invalid event naming the field path and the rule", () => {
    const attempt = () => toEventToAppend({ type: "RunCompletionRequested", data: { scored: -1 } }, context, deps());
    expect(attempt).toThrow(DomainError);
    expect(attempt).toThrow(/data\.scored: Too small: expected number to be >=0/);
    try {
      attempt();
    } catch (e) {
      expect((e as DomainError).code).toBe("validation");
      expect((e as DomainError).field).toBe("data.scored");
    }
  });

  it("refuses a new RunStarted whose agent is blank (null names none)", () => {
    const data = { ...runStartedV1, release: null, agent: "  " };
    expect(() => toEventToAppend({ type: "RunStarted", data: data as never }, context, deps())).toThrow(/data\.agent: must not be blank/);
    expect(toEventToAppend({ type: "RunStarted", data: { ...data, agent: null } as never }, context, deps()).schemaVersion).toBe(3);
  });

  it("names nested array paths", () => {
    const bad = { ...runStartedV1, release: null, agent: null, models: [{ label: "", provider: "openai", model: "m" }] };
    expect(() => toEventToAppend({ type: "RunStarted", data: bad as never }, context, deps())).toThrow(/data\.models\[0\]\.label: must not be blank/);
  });

  it("refuses a payload over 8 MB", () => {
    // data and metadata count together, as the adapters count them
    const fits = "x".repeat(MAX_EVENT_BYTES - 300);
    expect(toEventToAppend({ type: "RunFailed", data: { message: fits } }, context, deps()).data.message).toBe(fits);
    const message = "x".repeat(MAX_EVENT_BYTES - 100);
    expect(() => toEventToAppend({ type: "RunFailed", data: { message } }, context, deps())).toThrow(
      /event RunFailed: payload is 8388\d{3} bytes, over the 8 MB limit \(8388608 bytes\)/,
    );
  });

  it("refuses text PostgreSQL cannot store, naming where it is, and keeps text that only looks like it", () => {
    const refused = (data: Record<string, unknown>) => () => toEventToAppend({ type: "RunFailed", data: data as never }, context, deps());
    expect(refused({ message: "a\u0000b" })).toThrow("event RunFailed: data.message: must not contain a NUL character (\\u0000) or an unpaired surrogate");
    expect(refused({ message: "lone \ud83d here" })).toThrow(expect.objectContaining({ code: "validation", field: "data.message" }));
    expect(refused({ message: "trail \ude00" })).toThrow(/data\.message: must not contain/);
    const bad = { ...runStartedV1, release: null, agent: null, scenarios: [{ key: "a", prompt: "Where\u0000" }] };
    expect(() => toEventToAppend({ type: "RunStarted", data: bad as never }, context, deps())).toThrow(/data\.scenarios\[0\]\.prompt: must not contain/);
    // A paired surrogate (emoji), a literal backslash-u text and other control characters are stored as they are.
    for (const message of ["Où 😀 ok", "\\u0000 and \\ud800 as typed", "tab\t bell\u0007"]) {
      expect(toEventToAppend({ type: "RunFailed", data: { message } }, context, deps()).data.message).toBe(message);
    }
  });

  it("refuses data nested too deeply to serialize as a validation error, not a RangeError", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const data = { run_id: "r1", n: 0, scenario_key: "a", model_label: "m", replay: { answer: "hi", tool_calls: [], metadata: { deep } } };
    expect(() => toEventToAppend({ type: "ReplayRecorded", data: data as never }, context, deps())).toThrow(
      expect.objectContaining({ code: "validation", message: "event ReplayRecorded: data is nested too deeply to be stored" }),
    );
  });

  it("refuses a tenant that is not a plain id", () => {
    expect(() => toEventToAppend({ type: "RunFailed", data: { message: "x" } }, { tenant: "a;drop", actor: "u" }, deps())).toThrow(/metadata\.tenant/);
  });

  it("refuses an unknown event type", () => {
    expect(() => toEventToAppend({ type: "Nope", data: {} } as never, context, deps())).toThrow(UnknownEventTypeError);
  });
});

describe("stream ids", () => {
  it("builds the design's stream ids", () => {
    expect(catalogStream("acme", "support_desk")).toBe("catalog-acme.support_desk");
    expect(evaluationStream("e-1")).toBe("evaluation-e-1");
    expect(runStream("r_1")).toBe("run-r_1");
    expect(resultStream("r_1", 4)).toBe("result-r_1.4");
  });

  it.each(["../etc", "a/b", "a.b", "x'; drop table messages; --", "a--b", "", " a", "-a", "a".repeat(101)])("refuses %j", (bad) => {
    expect(() => runStream(bad)).toThrow(DomainError);
    expect(() => catalogStream(bad, "k")).toThrow(/tenant must be 1-100 ASCII letters/);
  });

  it("refuses a composed stream id over the adapters' 200-character limit", () => {
    expect(catalogStream("t".repeat(91), "k".repeat(100))).toHaveLength(200);
    expect(() => catalogStream("t".repeat(92), "k".repeat(100))).toThrow(/is 201 characters, over the 200 limit/);
  });

  it("refuses a negative or fractional pair index", () => {
    expect(() => resultStream("r", -1)).toThrow(/pair index/);
    expect(() => resultStream("r", 1.5)).toThrow(/pair index/);
  });
});
