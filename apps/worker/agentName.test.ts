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
  runStream,
  startRun,
  toEventsToAppend,
  type AgentRuntime,
  type EventStore,
} from "@verdict/domain";
import { startWorker, type RunningWorker } from "./startWorker.js";
import { recordedRun } from "./testingRecordedRun.js";
import { AGENT_SCRIPT, CLAUDE, GPT, RecordingBus, SCENARIOS, runEnded, testClock, testIds, testWorkerOptions, waitFor } from "./testing.js";

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
  const { started, summary, scored, report: rebuilt } = await recordedRun(store, "r1");
  const errored = [...scored.values()].filter((s) => s.status === "errored");
  return { started, summary, errored, rebuilt };
}

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
