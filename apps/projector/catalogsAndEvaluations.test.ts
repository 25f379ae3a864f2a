// Catalogs and evaluation suites in the read models: imports and removals, replace with destroy
// or disable, merge, archive and unarchive.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra";
import type { EventStore } from "@verdict/domain";
import { createProjector } from "./projector.js";
import { openTestReadModels, resetReadModels, type OrmReadModels } from "./testing/testReadModels.js";
import { commandDeps, createEvaluation, evaluationCommand, importCatalog, removeCatalog, type Deps } from "./testing/runFixture.js";
import { progressPayload } from "./progress/postgresProgressBus.js";

let read: OrmReadModels;
let store: EventStore;
let deps: Deps;

beforeAll(async () => {
  read = await openTestReadModels();
});
afterAll(async () => {
  await read?.close();
});
beforeEach(async () => {
  await resetReadModels(read);
  store = createMemoryEventStore();
  deps = commandDeps("acme");
});

const catchUp = () => createProjector({ store, orm: read.orm }).catchUp();

describe("catalogs", () => {
  it("keeps the latest import per key and drops a removed catalog", async () => {
    await importCatalog(store, deps, "support_desk", "a".repeat(64), ["refund"]);
    await importCatalog(store, deps, "support_desk", "b".repeat(64), ["refund", "late_delivery"]);
    await importCatalog(store, deps, "billing", "c".repeat(64), ["invoice"]);
    await catchUp();
    expect((await read.readModels.listCatalogs("acme")).map((c) => [c.key, c.digest.slice(0, 1), c.scenarioCount])).toEqual([
      ["billing", "c", 1], ["support_desk", "b", 2],
    ]);
    const catalog = await read.readModels.getCatalog("acme", "support_desk");
    expect(catalog).toMatchObject({ name: "Catalog support_desk", canonicalYaml: "---\ncatalog: support_desk\n", source: { kind: "upload" } });
    expect(catalog?.products[0].sets[0].scenarios.map((s: { key: string }) => s.key)).toEqual(["refund", "late_delivery"]);
    expect(await read.readModels.getCatalog("globex", "support_desk")).toBeNull();
    await removeCatalog(store, deps, "billing");
    await catchUp();
    expect((await read.readModels.listCatalogs("acme")).map((c) => c.key)).toEqual(["support_desk"]);
  });
});

describe("evaluation suites", () => {
  it("replaces with destroy or disable, merges, and counts the enabled scenarios", async () => {
    await createEvaluation(store, deps, "e1", ["a", "b", "c"]);
    await evaluationCommand(store, deps, "e1", { type: "ReplaceScenarios", on_removed: "disable", scenarios: [{ key: "a", prompt: "New prompt for a" }, { key: "b", prompt: "Prompt for b" }] });
    await catchUp();
    let scenarios = await read.readModels.listScenarios("acme", "e1");
    expect(scenarios.map((s) => [s.key, s.enabled])).toEqual([["a", true], ["b", true], ["c", false]]);
    expect(scenarios[0].prompt).toBe("New prompt for a");
    expect(await read.readModels.listScenarios("acme", "e1", { enabled: false })).toHaveLength(1);
    expect((await read.readModels.getEvaluation("acme", "e1"))?.scenarioCount).toBe(2);

    await evaluationCommand(store, deps, "e1", { type: "MergeScenarios", scenarios: [{ key: "d", prompt: "Prompt for d", group: "billing" }] });
    await evaluationCommand(store, deps, "e1", { type: "ReplaceScenarios", on_removed: "destroy", scenarios: [{ key: "a", prompt: "New prompt for a" }, { key: "d", prompt: "Prompt for d", group: "billing" }] });
    await catchUp();
    scenarios = await read.readModels.listScenarios("acme", "e1");
    expect(scenarios.map((s) => s.key)).toEqual(["a", "d"]);
    expect((await read.readModels.listScenarios("acme", "e1", { group: "billing" })).map((s) => s.key)).toEqual(["d"]);
    expect((await read.readModels.getEvaluation("acme", "e1"))?.scenarioCount).toBe(2);
  });

  it("archives and unarchives with the event's time", async () => {
    await createEvaluation(store, deps, "e1", ["a"]);
    await evaluationCommand(store, deps, "e1", { type: "ArchiveEvaluation", archived: true });
    await catchUp();
    const archived = await read.readModels.getEvaluation("acme", "e1");
    expect(archived?.archived).toBe(true);
    expect(archived?.archivedAt).toMatch(/^2026-11-30T12:00:\d\d\.000Z$/);
    expect((await read.readModels.listEvaluations("acme", { archived: false })).edges).toEqual([]);
    await evaluationCommand(store, deps, "e1", { type: "ArchiveEvaluation", archived: false });
    await catchUp();
    expect(await read.readModels.getEvaluation("acme", "e1")).toMatchObject({ archived: false, archivedAt: null });
  });
});

describe("progress payload", () => {
  it("stays small: long texts are clipped to 200 characters", () => {
    const payload = progressPayload({
      run_id: "r1", tenant: "acme", status: "RUNNING", total: 2, completed: 1, passed: 0, failed: 1, errored: 0,
      latest_result: { scenario_key: "k".repeat(5000), model_label: "m", status: "failed", score: 0.1, fault: "f".repeat(5000) },
    });
    expect(payload.length).toBeLessThan(1000);
    expect(JSON.parse(payload).latest_result.scenario_key).toHaveLength(200);
  });
});
