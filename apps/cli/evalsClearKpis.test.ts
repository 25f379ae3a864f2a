// `verdict evals clear-kpis ID` on the embedded default: the evaluation's judge-defined KPIs are
// cleared (KpisCleared, by "cli"); again, nothing is written; another tenant's id is refused word
// for word as a missing one (exit 2).
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvaluation, evaluationAggregate, evaluationStream, handleCommand, type EventStore } from "@verdict/domain";
import { claimHome, openEventStore, platformMode, Resources } from "./platform.js";
import { cli } from "./testing.js";

const dir = await mkdtemp(join(tmpdir(), "verdict-kpis-"));
const env = { VERDICT_HOME: join(dir, "home") };
const evaluationId = randomUUID();
afterAll(() => rm(dir, { recursive: true, force: true }));

const kpi = (key: string) => ({ key, type: "llm_judge", config: { prompt: `Is it ${key}?` } });
const options = { clock: { now: () => new Date() }, ids: { next: () => randomUUID() }, context: { tenant: "demo", actor: "test" } };

async function withStore<T>(work: (store: EventStore) => Promise<T>): Promise<T> {
  const resources = new Resources();
  try {
    const mode = platformMode(env);
    await claimHome(mode, resources);
    return await work(await openEventStore(mode, resources));
  } finally {
    await resources.close();
  }
}

beforeAll(async () => {
  await withStore(async (store) => {
    await createEvaluation(store, {
      evaluation_id: evaluationId, tenant: "demo", agent: "SupportAgent", name: "support", judge: { kind: "judge_defined", model: null }, scenarios: [{ key: "refund", prompt: "Refund order 1042." }],
    }, options);
    const define = { type: "DefineKpis", evaluation_id: evaluationId, run_id: randomUUID(), judge: "judge-x", criteria: [kpi("tone"), kpi("accuracy"), kpi("next_step")] };
    await handleCommand(store, evaluationAggregate, evaluationStream(evaluationId), define, options);
  });
}, 60_000);

describe("verdict evals clear-kpis", () => {
  it("clears the KPIs once, by the cli, and writes nothing the second time", async () => {
    const first = await cli(["evals", "clear-kpis", evaluationId], env);
    expect(first).toEqual({ code: 0, stdout: "", stderr: `cleared the KPIs tone, accuracy, next_step of evaluation ${evaluationId}: its next run asks its judge again` });
    const again = await cli(["evals", "clear-kpis", evaluationId], env);
    expect(again).toEqual({ code: 0, stdout: "", stderr: `evaluation ${evaluationId} holds no KPIs: nothing written` });
    const cleared = await withStore(async (store) => (await store.readStream(evaluationStream(evaluationId))).filter((e) => e.type === "KpisCleared"));
    expect(cleared.map((e) => [e.data, e.metadata.actor])).toEqual([[expect.objectContaining({ kpi_keys: ["tone", "accuracy", "next_step"], cleared_by: "cli" }), "cli"]]);
  }, 60_000);

  it("refuses another tenant's evaluation as a missing one, and a malformed id", async () => {
    const missing = randomUUID();
    const foreign = await cli(["evals", "clear-kpis", evaluationId, "--tenant", "globex"], env);
    const absent = await cli(["evals", "clear-kpis", missing, "--tenant", "globex"], env);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toBe(`verdict evals clear-kpis: evaluation ${evaluationId} not found`);
    expect(foreign.stderr.replace(evaluationId, "<id>")).toBe(absent.stderr.replace(missing, "<id>"));
    expect(await cli(["evals", "clear-kpis", "not an id"], env)).toEqual({ code: 2, stdout: "", stderr: expect.stringMatching(/^verdict evals clear-kpis: ID must be .* \(got "not an id"\)$/) });
  }, 60_000);
});
