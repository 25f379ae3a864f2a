// Catalog re-materialization deciders: SyncCatalogSet on the evaluation (given / when / then)
// and RecordMaterialization on the catalog (refused on any digest but the one synced to).
import { describe, expect, it } from "vitest";
import { evaluationAggregate, DEFAULT_CRITERIA } from "../evaluation/evaluationAggregate.js";
import { catalogAggregate } from "./catalogAggregate.js";
import { given } from "../testing/givenWhenThen.js";
import { catalogImport, created, DIGEST_A, DIGEST_B, record, replaced, scenario } from "../testing/fixtures.js";
import type { EventInput } from "../../events/registry.js";

const REF_A = { catalog_key: "support_desk", product_key: "triage", set_key: "smoke", digest: DIGEST_A };
const REF_B = { ...REF_A, digest: DIGEST_B };
const synced = [created("e1", { catalog: REF_A, criteria: DEFAULT_CRITERIA }), replaced([record("a", 0), record("b", 1)])];
const sync = (scenarios: unknown[], extra: Record<string, unknown> = {}) => ({
  type: "SyncCatalogSet", evaluation_id: "e1", tenant: "acme", catalog: REF_B, judge: null, criteria: null, scenarios, ...extra,
});

describe("SyncCatalogSet", () => {
  it("disables a scenario the set dropped, updates a changed one and records the new digest", () => {
    const events = given(evaluationAggregate, synced as EventInput[]).when(sync([scenario("a", { prompt: "New a" })]));
    expect(events.map((e) => e.type)).toEqual(["ScenariosReplaced", "CatalogSetSynced"]);
    expect(events[0].data).toMatchObject({ on_removed: "disable", updated: ["a"], disabled: ["b"], removed: [] });
    expect(events[1].data).toEqual({ catalog: REF_B, judge: { kind: "rules", model: null }, criteria: DEFAULT_CRITERIA, catalog_import: null, dropped: ["b"] });
  });

  it("records nothing when the digest, suite, judge and criteria are as held", () => {
    expect(given(evaluationAggregate, synced as EventInput[]).when(sync([scenario("a"), scenario("b")], { catalog: REF_A }))).toEqual([]);
  });

  it("leaves an evaluation on a newer import when an older import's sync lands after it (two imports racing)", () => {
    const onImport3 = [...synced, { type: "CatalogSetSynced", data: { catalog: REF_B, judge: { kind: "rules", model: null }, criteria: DEFAULT_CRITERIA, catalog_import: 3 } }];
    expect(given(evaluationAggregate, onImport3 as EventInput[]).when(sync([scenario("a", { prompt: "Older a" })], { catalog: REF_A, catalog_import: 2 }))).toEqual([]);
    // The same import again changes nothing; a newer one that puts back what is held is still recorded,
    // so an older import's sync arriving after it is refused too.
    expect(given(evaluationAggregate, onImport3 as EventInput[]).when(sync([scenario("a"), scenario("b")], { catalog_import: 3 }))).toEqual([]);
    const newer = given(evaluationAggregate, onImport3 as EventInput[]).when(sync([scenario("a"), scenario("b")], { catalog_import: 4 }));
    expect(newer).toEqual([{ type: "CatalogSetSynced", data: { catalog: REF_B, judge: { kind: "rules", model: null }, criteria: DEFAULT_CRITERIA, catalog_import: 4, dropped: [] } }]);
  });

  it("enables again a scenario the set dropped and names again, but not one disabled by hand", () => {
    const dropB = given(evaluationAggregate, synced as EventInput[]).when(sync([scenario("a")]));
    const afterDrop = [...synced, ...dropB] as EventInput[];
    const back = given(evaluationAggregate, afterDrop).when(sync([scenario("a"), scenario("b")], { catalog: { ...REF_B, digest: DIGEST_A } }));
    expect(back[0]).toMatchObject({ type: "ScenariosReplaced", data: { updated: ["b"], disabled: [] } });
    expect((back[0].data as { scenarios: { key: string; enabled: boolean }[] }).scenarios.find((s) => s.key === "b")?.enabled).toBe(true);
    expect(back[1].data).toMatchObject({ dropped: [] });
    // Disabled by hand (a replace naming it disabled), then named by the set: it stays disabled.
    const byHand = [...synced, replaced([record("a", 0), record("b", 1, { enabled: false })])] as EventInput[];
    const kept = given(evaluationAggregate, byHand).when(sync([scenario("a"), scenario("b")], { catalog: REF_A }));
    expect(kept).toEqual([]);
  });

  it("disables every scenario when the set is gone, keeping its judge and criteria", () => {
    const events = given(evaluationAggregate, synced as EventInput[]).when(sync([]));
    expect(events[0].data).toMatchObject({ disabled: ["a", "b"], scenarios: [] });
  });

  it("does not find another tenant's evaluation", () => {
    expect(() => given(evaluationAggregate, synced as EventInput[]).when(sync([scenario("a")], { tenant: "globex" }))).toThrow(/not found/);
  });
});

describe("RecordMaterialization", () => {
  const record = (digest: string) => ({
    type: "RecordMaterialization", tenant: "acme", key: "support_desk", digest, evaluation_id: "e1", product_key: "triage", set_key: "smoke",
  });
  const imported = (digest: string): EventInput => {
    const { type: _type, ...data } = catalogImport(digest);
    return { type: "CatalogImported", data: { ...data, scenario_count: 1 } } as EventInput;
  };

  it("records once at the current digest, and refuses an older one", () => {
    const events = given(catalogAggregate, [imported(DIGEST_A)]).when(record(DIGEST_A));
    expect(events).toEqual([{ type: "CatalogSetMaterialized", data: { evaluation_id: "e1", product_key: "triage", set_key: "smoke", include_production_only: false, judge: null, criteria: null } }]);
    expect(given(catalogAggregate, [imported(DIGEST_A), ...events]).when(record(DIGEST_A))).toEqual([]);
    expect(() => given(catalogAggregate, [imported(DIGEST_A), imported(DIGEST_B)]).when(record(DIGEST_A))).toThrow(/imported again/);
  });
});
