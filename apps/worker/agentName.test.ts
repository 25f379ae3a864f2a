// A run names the agent its evaluation was created for, as a local run of that agent does
// (`verdict run` gives the Runner `agentName: product.agent`): a pair whose replay raised reads
// "The run failed before revagent answered: …", the completed report's JSON carries `agent_name`,
// and the report rebuilt from the recorded events (the API's, `verdict report`) is the
// completion's, byte for byte. A run started before RunStarted v3 names no agent: it still reads
// "the agent", exactly as it was scored.
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { ScriptedAgent } from "@verdict/infra/agents";
import {
  createEvaluation,
  eventRegistry,
  readWholeStream,
  runStream,
  startRun,
  toEventsToAppend,
  type AgentRuntime,
  type EventData,
  type EventStore,
} from "@verdict/domain";
import { readPairEvents } from "./pairEvents.js";
import { reportFromRun } from "./runReport.js";
import { startWorker, type RunningWorker } from "./startWorker.js";
import { AGENT_SCRIPT, CLAUDE, GPT, RecordingBus, SCENARIOS, runEnded, runEvents, testClock, testIds, testWorkerOptions, waitFor } from "./testing.js";

const ERROR = "agent unreachable: connect ECONNREFUSED 127.0.0.1:1";

/** The scripted agent, except that every replay of `greeting` raises: that pair is a run_error. */
function agentFailingGreeting(): AgentRuntime {
  const scripted = ScriptedAgent.fromYaml(AGENT_SCRIPT);
  return {
    name: "scripted, greeting unreachable",
    replay: async (scenario, model, options) => {
      if (scenario.key === "greeting") throw new Error(ERROR);
      return scripted.replay(scenario, model, options);
    },
  };
}

let worker: RunningWorker | null = null;
afterEach(async () => {
  await worker?.stop();
  worker = null;
});

async function start(store: EventStore) {
  worker = await startWorker(testWorkerOptions(store, new RecordingBus(), { runtime: agentFailingGreeting() }));
}

const options = { clock: testClock, ids: testIds, context: { tenant: "acme", actor: "user:test" } };

/** The evaluation of agent RevAgent, created and run as the API does. */
async function startedThroughCommands(store: EventStore): Promise<void> {
  await createEvaluation(store, { evaluation_id: "e1", tenant: "acme", agent: "RevAgent", name: "Revenue", scenarios: SCENARIOS.map(({ position: _p, ...s }) => s) }, options);
  await startRun(store, { run_id: "r1", evaluation_id: "e1", models: [GPT, CLAUDE], tools: [{ name: "lookup_order", description: "Finds an order" }] }, options);
}

/** What a RunStarted v2 recorded (no agent), appended as it was stored before v3. */
async function startedAsV2(store: EventStore): Promise<void> {
  const data = {
    run_id: "r1", evaluation_id: "e1", tenant: "acme", number: 1, external: false,
    selection: { keys: null, group: null, scenario_keys: SCENARIOS.map((s) => s.key), model_labels: [GPT.label, CLAUDE.label] },
    scenarios: SCENARIOS, models: [GPT, CLAUDE], criteria: [{ key: "length", type: "min_length", config: { chars: 20 } }],
    judge: { kind: "rules", model: null }, judge_label: null, threshold: 0.7, release: null, metadata: {},
    tools: [{ name: "lookup_order", description: "Finds an order" }], catalog: null,
  };
  const [encoded] = toEventsToAppend([{ type: "RunStarted", data: { ...data, agent: null } } as never], options.context, options);
  await store.append(runStream("r1"), [{ ...encoded, schemaVersion: 2, data }], { expectedVersion: "noStream" });
}

/** Every pair's diagnosis summary, the completion's summary, and the report rebuilt from the events. */
async function completedRun(store: EventStore) {
  await waitFor(() => runEnded(store, "r1"));
  const events = await runEvents(store, "r1");
  const pick = <T extends keyof EventDataMap>(type: T) => events.find((e) => e.type === type)?.data as EventDataMap[T];
  expect(events.at(-1)?.type).toBe("RunCompleted");
  const started = pick("RunStarted");
  // The pairs as the API reads them (loadRunHistory): one scan of the log after RunStarted.
  const [startedRecorded] = await readWholeStream(store, runStream("r1"));
  const replays = new Map<number, EventData<"ReplayRecorded">>();
  const scored = new Map<number, EventData<"ResultScored">>();
  for (const recorded of await readPairEvents(store, { runId: "r1", after: startedRecorded.position, pairs: started.scenarios.length * started.models.length })) {
    const event = eventRegistry.parseRecorded(recorded);
    if (event.type === "ReplayRecorded") replays.set(event.data.n, event.data);
    if (event.type === "ResultScored") scored.set(event.data.n, event.data);
  }
  const rebuilt = reportFromRun({ started, replays, scored, verdict: pick("VerdictRecorded"), comparison: pick("ComparisonRecorded") });
  const errored = [...scored.values()].filter((s) => s.status === "errored");
  return { started, summary: pick("RunCompleted").summary, errored, rebuilt };
}

type EventDataMap = { RunStarted: EventData<"RunStarted">; RunCompleted: EventData<"RunCompleted">; VerdictRecorded: EventData<"VerdictRecorded">; ComparisonRecorded: EventData<"ComparisonRecorded"> };

describe("the agent a run names", () => {
  it("is the evaluation's: a run_error's diagnosis and the completed report name it as a local run does", async () => {
    const store = createMemoryEventStore();
    await start(store);
    await startedThroughCommands(store);
    const { started, summary, errored, rebuilt } = await completedRun(store);

    expect(started.agent).toBe("RevAgent");
    // greeting x both models raised: each is a run_error naming the agent, lower-cased.
    expect(errored.map((s) => [s.scenario_key, s.model_label])).toEqual([["greeting", GPT.label], ["greeting", CLAUDE.label]]);
    for (const s of errored) {
      expect(s.diagnosis).toMatchObject({ fault: "run_error", summary: `The run failed before revagent answered: Error: ${ERROR}` });
    }
    expect(summary.agent_name).toBe("RevAgent");
    const json = rebuilt.toJSON() as unknown as Record<string, unknown>;
    expect(json.agent_name).toBe("RevAgent");
    // The rebuilt report is the completion's, byte for byte.
    const { results: _results, ...rebuiltSummary } = json;
    expect(JSON.stringify(rebuiltSummary)).toBe(JSON.stringify(summary));
    expect(rebuilt.toMarkdown()).not.toContain("the agent answered");
  });

  it("is none on a run started before RunStarted v3: it reads \"the agent\", exactly as it was scored", async () => {
    const store = createMemoryEventStore();
    await start(store);
    await startedAsV2(store);
    const { started, summary, errored, rebuilt } = await completedRun(store);

    expect(started.agent).toBeNull();
    expect(errored).toHaveLength(2);
    for (const s of errored) {
      expect(s.diagnosis).toMatchObject({ fault: "run_error", summary: `The run failed before the agent answered: Error: ${ERROR}` });
    }
    expect(summary).not.toHaveProperty("agent_name");
    const { results: _results, ...rebuiltSummary } = rebuilt.toJSON() as unknown as Record<string, unknown>;
    expect(rebuiltSummary).not.toHaveProperty("agent_name");
    expect(JSON.stringify(rebuiltSummary)).toBe(JSON.stringify(summary));
  });
});
