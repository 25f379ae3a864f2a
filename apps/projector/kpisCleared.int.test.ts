// KpisCleared in the read models on PostgreSQL: the evaluation keeps no KPIs nor provenance, its
// criteria lose the KPI entries (a set's criterion that took a KPI's key stays), a run that froze
// them keeps them, and KPIs defined afterwards are listed as the first ones were.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra";
import { createEvaluation as create, handleCommand, runAggregate, runStream } from "@verdict/domain";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { createProjector } from "./projector.js";
import { openTestReadModels, type OrmReadModels } from "./testing/testReadModels.js";
import { beginRun, commandDeps, evaluationCommand, GPT } from "./testing/runFixture.js";

let db: TestDatabase;
let read: OrmReadModels;
beforeAll(async () => {
  db = await createTestDatabase("verdict_kpis_cleared");
  read = await openTestReadModels({ url: db.url });
});
afterAll(async () => {
  await read?.close();
  await db?.drop();
});

const kpi = (key: string) => ({ key, type: "llm_judge", config: { prompt: `Is it ${key}?` } });
const AT = "2026-11-30T12:00:00.000Z";
const keysOf = (criteria: unknown) => (criteria as { key: string; type: string; defined_by?: string }[]).map((c) => [c.key, c.type, c.defined_by ?? null]);

describe("cleared judge-defined KPIs in the read models", () => {
  it("leave the evaluation (kpis, provenance, criteria) but not the runs that froze them; new ones are listed again", async () => {
    const store = createMemoryEventStore();
    const deps = commandDeps("acme");
    const project = () => createProjector({ store, orm: read.orm }).catchUp();
    await create(store, {
      evaluation_id: "kc1", tenant: "acme", agent: "SupportAgent", name: "KPIs cleared", judge: { kind: "judge_defined", model: null },
      criteria: [{ key: "present", type: "response_present", config: {} }], scenarios: [{ key: "a", prompt: "Prompt a" }],
    }, deps);
    await beginRun(store, deps, "kc1", "kcr1", [GPT]);
    await evaluationCommand(store, deps, "kc1", { type: "DefineKpis", run_id: "kcr1", judge: "judge-x", criteria: [kpi("tone"), kpi("accuracy"), kpi("clarity")] });
    await handleCommand(store, runAggregate, runStream("kcr1"), {
      type: "RecordKpiAuthoring", run_id: "kcr1", outcome: "defined", criteria: [{ ...kpi("tone"), defined_by: "judge-x", defined_at: AT }], kpi_provenance: { judge: "judge-x", defined_at: AT },
    }, deps);
    // The set gives a criterion the key "accuracy": it overrides that KPI, and is no KPI to clear.
    await evaluationCommand(store, deps, "kc1", {
      type: "SyncCatalogSet", tenant: "acme", catalog: { catalog_key: "c", product_key: "p", set_key: "s", digest: "a".repeat(64) },
      judge: { kind: "judge_defined", model: null }, criteria: [{ key: "accuracy", type: "contains", config: { pattern: "order" } }], scenarios: [{ key: "a", prompt: "Prompt a" }],
    });
    await project();
    expect(keysOf((await read.readModels.getEvaluation("acme", "kc1"))?.criteria)).toEqual([
      ["accuracy", "contains", null], ["tone", "llm_judge", "judge-x"], ["clarity", "llm_judge", "judge-x"],
    ]);

    await evaluationCommand(store, deps, "kc1", { type: "ClearKpis", tenant: "acme", cleared_by: "tester" });
    await project();
    const cleared = await read.readModels.getEvaluation("acme", "kc1");
    expect(cleared?.kpis).toEqual([]);
    expect(cleared?.kpiProvenance).toBeNull();
    expect(keysOf(cleared?.criteria)).toEqual([["accuracy", "contains", null]]);
    const run = await read.readModels.getRun("acme", "kcr1");
    expect((run?.criteria as { key: string }[]).map((c) => c.key)).toEqual(["present", "tone"]);

    await beginRun(store, deps, "kc1", "kcr2", [GPT]);
    await evaluationCommand(store, deps, "kc1", { type: "DefineKpis", run_id: "kcr2", judge: "judge-y", criteria: [kpi("empathy"), kpi("brevity"), kpi("tone")] });
    await project();
    const redefined = await read.readModels.getEvaluation("acme", "kc1");
    expect((redefined?.kpiProvenance as { judge: string }).judge).toBe("judge-y");
    expect((redefined?.kpis as unknown[]).length).toBe(3);
    expect(keysOf(redefined?.criteria)).toEqual([
      ["accuracy", "contains", null], ["empathy", "llm_judge", "judge-y"], ["brevity", "llm_judge", "judge-y"], ["tone", "llm_judge", "judge-y"],
    ]);
  });
});
