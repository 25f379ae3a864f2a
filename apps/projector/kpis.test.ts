// Judge-defined KPIs in the read models: KpisDefined keeps them apart (evaluations.kpis), lists
// them after the criteria and records their provenance; a catalog sync, which replaces the
// criteria, keeps them after the set's (a KPI whose key the set now has is left out, as a run
// freezes them); KpiAuthoringRecorded is kept whole on the run and adds its KPIs to its criteria.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra";
import { createEvaluation as create, handleCommand, runAggregate, runStream } from "@verdict/domain";
import { createProjector } from "./projector.js";
import { openTestReadModels, type OrmReadModels } from "./testing/testReadModels.js";
import { beginRun, commandDeps, evaluationCommand, GPT } from "./testing/runFixture.js";

let read: OrmReadModels;
beforeAll(async () => {
  read = await openTestReadModels();
});
afterAll(async () => {
  await read?.close();
});

const kpi = (key: string) => ({ key, type: "llm_judge", config: { prompt: `Is it ${key}?` } });
const DIGEST = "a".repeat(64);

describe("judge-defined KPIs in the read models", () => {
  it("are listed after the criteria with their provenance, survive a catalog sync, and settle on the run", async () => {
    const store = createMemoryEventStore();
    const deps = commandDeps("acme");
    await create(store, {
      evaluation_id: "k1", tenant: "acme", agent: "SupportAgent", name: "KPIs", judge: { kind: "judge_defined", model: null },
      criteria: [{ key: "present", type: "response_present", config: {} }], scenarios: [{ key: "a", prompt: "Prompt a" }],
    }, deps);
    await beginRun(store, deps, "k1", "kr1", [GPT]);
    await evaluationCommand(store, deps, "k1", { type: "DefineKpis", run_id: "kr1", judge: "judge-x", criteria: [kpi("tone"), kpi("accuracy"), kpi("clarity")] });
    await handleCommand(store, runAggregate, runStream("kr1"), {
      type: "RecordKpiAuthoring", run_id: "kr1", outcome: "defined", criteria: [{ ...kpi("tone"), defined_by: "judge-x", defined_at: "2026-11-30T12:00:00.000Z" }],
      kpi_provenance: { judge: "judge-x", defined_at: "2026-11-30T12:00:00.000Z" },
    }, deps);
    await createProjector({ store, orm: read.orm }).catchUp();

    const evaluation = await read.readModels.getEvaluation("acme", "k1");
    const provenance = evaluation?.kpiProvenance as { judge: string; defined_at: string };
    expect(provenance.judge).toBe("judge-x");
    expect((evaluation?.criteria as { key: string; defined_by?: string }[]).map((c) => [c.key, c.defined_by ?? null])).toEqual([
      ["present", null], ["tone", "judge-x"], ["accuracy", "judge-x"], ["clarity", "judge-x"],
    ]);
    const run = await read.readModels.getRun("acme", "kr1");
    expect(run?.kpiAuthoring).toMatchObject({ outcome: "defined", message: null });
    // The define call is the audit's (the run's events), not every run read's.
    expect(run?.kpiAuthoring).not.toHaveProperty("judge_exchange");
    expect((run?.criteria as { key: string }[]).map((c) => c.key)).toEqual(["present", "tone"]);

    await evaluationCommand(store, deps, "k1", {
      type: "SyncCatalogSet", tenant: "acme", catalog: { catalog_key: "c", product_key: "p", set_key: "s", digest: DIGEST },
      judge: { kind: "judge_defined", model: null }, criteria: [{ key: "accuracy", type: "contains", config: { pattern: "order" } }], scenarios: [{ key: "a", prompt: "Prompt a" }],
    });
    await createProjector({ store, orm: read.orm }).catchUp();
    const synced = await read.readModels.getEvaluation("acme", "k1");
    expect((synced?.criteria as { key: string; type: string }[]).map((c) => [c.key, c.type])).toEqual([
      ["accuracy", "contains"], ["tone", "llm_judge"], ["clarity", "llm_judge"],
    ]);
    expect((synced?.kpis as unknown[]).length).toBe(3);

    // Another judge kind: the criteria are the set's alone; the KPIs stay recorded and come back
    // with judge_defined.
    const resync = (kind: string) => evaluationCommand(store, deps, "k1", {
      type: "SyncCatalogSet", tenant: "acme", catalog: { catalog_key: "c", product_key: "p", set_key: "s", digest: kind === "rules" ? "b".repeat(64) : "c".repeat(64) },
      judge: { kind, model: null }, criteria: [{ key: "accuracy", type: "contains", config: { pattern: "order" } }], scenarios: [{ key: "a", prompt: "Prompt a" }],
    });
    await resync("rules");
    await createProjector({ store, orm: read.orm }).catchUp();
    const rules = await read.readModels.getEvaluation("acme", "k1");
    expect((rules?.criteria as { key: string }[]).map((c) => c.key)).toEqual(["accuracy"]);
    expect((rules?.kpis as unknown[]).length).toBe(3);
    await resync("judge_defined");
    await createProjector({ store, orm: read.orm }).catchUp();
    const back = await read.readModels.getEvaluation("acme", "k1");
    expect((back?.criteria as { key: string }[]).map((c) => c.key)).toEqual(["accuracy", "tone", "clarity"]);
  });
});
