// Events an earlier version stored that today's code reads differently: a scenario position past
// the read models' integer column projects (held at its end), and an event that does not read at
// all is recorded in projector_rejections and passed over, naming where it is, instead of
// stopping the projector (or, for a pair event taken as stored, failing it for ever).
import { beforeEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra";
import { agentStream, evaluationStream, pairStream, toEventsToAppend, type EventInput, type EventStore } from "@verdict/domain";
import { createProjector } from "./projector.js";
import { rejectionLine, type RejectedEvent } from "./projection/rejections.js";
import { ReadModels } from "./readModels/readModels.js";
import type { OrmReadModels } from "./testing/testReadModels.js";
import { useTestReadModels } from "./testing/useTestReadModels.js";
import { beginRun, commandDeps, createEvaluation, GPT, recordPair, type Deps } from "./testing/runFixture.js";

let read: OrmReadModels;
let store: EventStore;
let deps: Deps;
const readModels = useTestReadModels();
beforeEach(() => {
  read = readModels();
  store = createMemoryEventStore();
  deps = commandDeps("acme");
});

/** Appends `data` as stored, bypassing every command and the append's own checks (as an older version wrote it). */
async function appendRaw(streamId: string, type: string, data: Record<string, unknown>, expectedVersion: "any" | "noStream" = "any", schemaVersion = 1) {
  const [envelope] = toEventsToAppend([{ type: "EvaluationArchived", data: { archived_at: "2026-11-30T12:00:00Z" } } as EventInput], { tenant: "acme", actor: "old" }, deps);
  await store.append(streamId, [{ ...envelope, type, schemaVersion, data }], { expectedVersion });
}

function projector(rejected: RejectedEvent[]) {
  return createProjector({ store, orm: read.orm, batchSize: 50, onReject: (r) => void rejected.push(r) });
}

describe("events an earlier version stored", () => {
  it("a scenario position past int4 projects, held at the end of the suite", async () => {
    await createEvaluation(store, deps, "e1", ["a", "b"]);
    const merged = { limit: 500, scenarios: [{ key: "z", prompt: "Late one", position: 2 ** 40, enabled: true }], added: ["z"], updated: [], unchanged: [] };
    await appendRaw(evaluationStream("e1"), "ScenariosMerged", merged);
    const rejected: RejectedEvent[] = [];
    await projector(rejected).catchUp();
    expect(rejected).toEqual([]);
    const scenarios = await new ReadModels(read.orm).listScenarios("acme", "e1");
    expect(scenarios.map((s) => [s.key, s.position])).toEqual([["a", 0], ["b", 1], ["z", 2_147_483_647]]);
  });

  it("an event that does not read is recorded and passed over, naming its stream and position; later events project", async () => {
    await createEvaluation(store, deps, "e1", ["a", "b"]);
    const run = await beginRun(store, deps, "e1", "r1", [GPT]);
    await appendRaw(pairStream(run, "a", GPT.label), "ReplayRecorded", { run_id: "r1", n: 0, replay: "garbage" }, "noStream");
    await recordPair(store, deps, run, "b", GPT.label, "passed");
    const rejected: RejectedEvent[] = [];
    await projector(rejected).catchUp();
    expect(rejected).toEqual([expect.objectContaining({ type: "ReplayRecorded", streamId: "result-r1.0", sqlState: "", error: expect.stringContaining("event ReplayRecorded v1 is invalid") })]);
    expect(rejectionLine(rejected[0])).toMatch(/^could not read ReplayRecorded in stream result-r1\.0 at \d+\/\d+ \(event ReplayRecorded v1 is invalid/);
    expect(await new ReadModels(read.orm).getResult("acme", "r1", 1)).toMatchObject({ status: "passed" });
  });

  it("a pair event without a key its schema defaults (judge_exchanges, replay.metadata) projects as its parse reads it, and a rebuild too", async () => {
    // Valid by the schema, which defaults what they leave out; every append stores the defaults,
    // but a writer other than the append may not. Taken as stored, the projection threw a
    // TypeError on them, which the projector retried for ever and a rebuild failed with.
    await createEvaluation(store, deps, "e1", ["a", "b", "c"]);
    const run = await beginRun(store, deps, "e1", "r1", [GPT]);
    const pair = (key: string, n: number) => ({ run_id: "r1", n, scenario_key: key, model_label: GPT.label });
    const scored = { status: "passed", score: 1, scores: { task_completion: 1 }, pass: true, fault: null, recommendation: null, diagnosis: null };
    await recordPair(store, deps, run, "a", GPT.label, "failed");
    const replay = { answer: "Old answer", tool_calls: [{ name: "lookup" }], duration_ms: 120, input_tokens: 10, output_tokens: 5, cost: 0.0001 };
    await appendRaw(pairStream(run, "b", GPT.label), "ReplayRecorded", { ...pair("b", 1), replay }, "noStream");
    await appendRaw(pairStream(run, "b", GPT.label), "ResultScored", { ...pair("b", 1), ...scored });
    await recordPair(store, deps, run, "c", GPT.label, "passed");
    const rows = () => read.sql.sql().execute<Record<string, unknown>>(
      `SELECT n, status, answer, tool_calls, replay_metadata, cost_source, judge_exchanges, judge_calls, judge_source FROM results WHERE run_id = 'r1' ORDER BY n`,
    );
    const run1 = () => read.sql.sql().execute<Record<string, unknown>>("SELECT completed, passed, failed, judge_calls, agent_input_tokens FROM runs WHERE id = 'r1'");
    const expected = [
      expect.objectContaining({ n: 0, status: "failed" }),
      { n: 1, status: "passed", answer: "Old answer", tool_calls: [{ name: "lookup" }], replay_metadata: {}, cost_source: "reported", judge_exchanges: [], judge_calls: 0, judge_source: null },
      expect.objectContaining({ n: 2, status: "passed", judge_calls: 1, judge_source: "meter" }),
    ];
    for (const batchSize of [50, 1]) {
      // One batch with the other pairs' events (the handler's failed attempt must leave nothing to count twice), and one event a batch.
      const rejected: RejectedEvent[] = [];
      const projector = createProjector({ store, orm: read.orm, batchSize, onReject: (r) => void rejected.push(r) });
      await projector.rebuild();
      expect(rejected).toEqual([]);
      expect(await rows()).toEqual(expected);
      expect(await run1()).toEqual([{ completed: 3, passed: 2, failed: 1, judge_calls: 1, agent_input_tokens: "30" }]);
    }
  });

  it("a pair event taken as stored that neither the projection nor its schema reads is still recorded and passed over", async () => {
    await createEvaluation(store, deps, "e1", ["a", "b"]);
    const run = await beginRun(store, deps, "e1", "r1", [GPT]);
    // No judge_exchanges (the TypeError), and a score its schema refuses: read, it does not parse.
    const scored = { run_id: "r1", n: 0, scenario_key: "a", model_label: GPT.label, status: "passed", score: 7, scores: {}, pass: true, fault: null, recommendation: null, diagnosis: null };
    await appendRaw(pairStream(run, "a", GPT.label), "ResultScored", scored, "noStream");
    await recordPair(store, deps, run, "b", GPT.label, "passed");
    const rejected: RejectedEvent[] = [];
    await projector(rejected).catchUp();
    expect(rejected).toEqual([expect.objectContaining({ type: "ResultScored", streamId: "result-r1.0", error: expect.stringContaining("event ResultScored v1 is invalid") })]);
    expect(await new ReadModels(read.orm).getResult("acme", "r1", 0)).toMatchObject({ status: "pending" });
    expect(await new ReadModels(read.orm).getResult("acme", "r1", 1)).toMatchObject({ status: "passed" });
  });

  it("an AgentReleaseRecorded v1 keeps its manifest in the log only: the release projects without it, and no column holds it", async () => {
    const manifest = { model: "gpt-5-mini", headers: [{ name: "Authorization", value: "Bearer sk-live-old" }] };
    await appendRaw(agentStream("acme", "Old"), "AgentReleaseRecorded", { tenant: "acme", agent: "Old", version: 1, digest: "0123456789ab", revision: "r1", manifest, returned: false });
    const rejected: RejectedEvent[] = [];
    await projector(rejected).catchUp();
    expect(rejected).toEqual([]);
    const models = new ReadModels(read.orm);
    expect((await models.getAgent("acme", "Old"))?.latestRelease).toEqual({ version: 1, label: "v1", digest: "0123456789ab", revision: "r1", recordedAt: expect.any(String) });
    const columns = await read.sql.sql().execute<{ name: string }>("SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'agent_releases'");
    expect(columns.map((c) => c.name)).not.toContain("manifest");
    const [row] = await read.sql.sql().execute<Record<string, unknown>>("SELECT * FROM agent_releases");
    expect(JSON.stringify(row)).not.toContain("sk-live-old");
  });
});
