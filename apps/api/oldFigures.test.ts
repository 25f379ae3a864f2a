// A replay an earlier version recorded with figures past today's limits (a host's epoch timestamp
// as a duration, runaway tokens and cost), written with the store's append as that version did:
// it reads, projects, and its run's report renders in Markdown, JSON and HTML.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra";
import {
  createEvaluation, handleCommand, pairStream, resultAggregate, runAggregate, runStream, startRun, toEventsToAppend, type EventStore,
} from "@verdict/domain";
import { createProjector, openTestReadModels, ReadModels } from "@verdict/projector";
import { loadRunHistory } from "./report/runEvents.js";
import { rebuildReport, reportDocumentOf } from "./report/rebuildReport.js";

type TestReadModels = Awaited<ReturnType<typeof openTestReadModels>>;
const GPT = { label: "gpt-5-mini", provider: "openai", model: "gpt-5-mini" };
const huge = { answer: "ok", duration_ms: 1e13, input_tokens: 5e12, output_tokens: 5e12, cost: 3e9 };
let ids = 0;
const deps = { clock: { now: () => new Date("2026-11-30T12:00:00Z") }, ids: { next: () => `00000000-0000-4000-9000-${String(++ids).padStart(12, "0")}` }, context: { tenant: "acme", actor: "tester" } };

let read: TestReadModels;
beforeAll(async () => {
  read = await openTestReadModels();
});
afterAll(async () => {
  await read?.close();
});

/** A run of one pair whose replay is appended raw (no command, so no input limits), then scored and completed. */
async function runWithOldReplay(store: EventStore): Promise<void> {
  await createEvaluation(store, { evaluation_id: "e1", tenant: "acme", agent: "A", name: "Old", scenarios: [{ key: "a", prompt: "Where is my order?" }] }, deps);
  const { run } = await startRun(store, { run_id: "r1", evaluation_id: "e1", models: [GPT] }, deps);
  const streamId = pairStream(run.state, "a", GPT.label);
  const pair = { run_id: "r1", n: 0, scenario_key: "a", model_label: GPT.label };
  // toEventsToAppend would refuse these figures now; the stored event is what an older version wrote.
  const [valid] = toEventsToAppend([{ type: "ReplayRecorded", data: { ...pair, replay: { answer: "ok" } } }], { tenant: "acme", actor: "host" }, deps);
  await store.append(streamId, [{ ...valid, data: { ...pair, replay: { ...huge, tool_calls: [], metadata: {} } } }], { expectedVersion: "noStream" });
  const options = { ...deps, decideContext: { run: run.state } };
  const scored = { type: "ScoreResult", run_id: "r1", scenario_key: "a", model_label: GPT.label, status: "passed", score: 1, scores: {}, pass: true } as const;
  await handleCommand(store, resultAggregate, streamId, scored, options);
  await handleCommand(store, runAggregate, runStream("r1"), { type: "CompleteRun", run_id: "r1", results: [{ scenario_key: "a", model_label: GPT.label, pass: true }], summary: {} }, deps);
}

describe("a replay recorded with figures past today's limits", () => {
  it("projects, and its run's report renders in Markdown, JSON and HTML", async () => {
    const store = createMemoryEventStore();
    await runWithOldReplay(store);
    const rejected: unknown[] = [];
    const projector = createProjector({ store, orm: read.orm, onReject: (r) => void rejected.push(r) });
    await projector.catchUp();
    expect(rejected).toEqual([]);
    const models = new ReadModels(read.orm);
    expect(await models.getResult("acme", "r1", 0)).toMatchObject({ durationMs: 1e13, cost: 3e9 });
    expect(await models.getRun("acme", "r1")).toMatchObject({ status: "COMPLETED", agentCost: 3e9, agentInputTokens: 5e12, agentOutputTokens: 5e12 });

    const history = await loadRunHistory(store, "acme", "r1");
    const report = rebuildReport(history);
    const markdown = report.toMarkdown();
    expect(markdown).toContain("| 10000000000000 ms |");
    expect(markdown).not.toMatch(/NaN|Infinity|undefined/);
    expect(report.toHtml()).toContain("<html");
    expect(report.toHtml()).not.toMatch(/NaN|Infinity/);
    expect(JSON.stringify(reportDocumentOf(history, report))).toContain("10000000000000");
  });
});
