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

/** Each scenario's enabled flag once `events` are applied. */
const enabled = (events: EventInput[]) => Object.fromEntries(given(evaluationAggregate, events).state.scenarios.map((s) => [s.key, s.enabled]));

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

  it("records the same import's sync again when the evaluation's own judge changed (a creation from the set naming one)", () => {
    const onImport3 = [...synced, { type: "CatalogSetSynced", data: { catalog: REF_B, judge: { kind: "rules", model: null }, criteria: DEFAULT_CRITERIA, catalog_import: 3 } }];
    const judge = { kind: "llm", model: "gpt-5" };
    expect(given(evaluationAggregate, onImport3 as EventInput[]).when(sync([scenario("a"), scenario("b")], { catalog_import: 3, judge }))).toEqual([
      { type: "CatalogSetSynced", data: { catalog: REF_B, judge, criteria: DEFAULT_CRITERIA, catalog_import: 3, dropped: [] } },
    ]);
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

  it("keeps a scenario the set names again as disabled when the set says so", () => {
    const afterDrop = [...synced, ...given(evaluationAggregate, synced as EventInput[]).when(sync([scenario("a")]))] as EventInput[];
    const back = given(evaluationAggregate, afterDrop).when(sync([scenario("a"), scenario("b", { enabled: false })], { catalog: { ...REF_B, digest: DIGEST_A } }));
    expect(enabled([...afterDrop, ...back])).toEqual({ a: true, b: false });
  });

  it("remembers what the set dropped across imports that still leave it out, and enables it when named again", () => {
    const afterDrop = [...synced, ...given(evaluationAggregate, synced as EventInput[]).when(sync([scenario("a")]))] as EventInput[];
    const still = [...afterDrop, ...given(evaluationAggregate, afterDrop).when(sync([scenario("a", { prompt: "Newer a" })], { catalog: REF_A }))];
    const back = given(evaluationAggregate, still).when(sync([scenario("a", { prompt: "Newer a" }), scenario("b")]));
    expect(enabled([...still, ...back])).toEqual({ a: true, b: true });
  });

  it("never enables a scenario disabled by hand: not when the set is gone and comes back naming it", () => {
    const byHand = [...synced, replaced([record("a", 0), record("b", 1, { enabled: false })])] as EventInput[];
    const gone = [...byHand, ...given(evaluationAggregate, byHand).when(sync([]))];
    expect(enabled(gone)).toEqual({ a: false, b: false });
    const back = given(evaluationAggregate, gone).when(sync([scenario("a"), scenario("b")], { catalog: REF_A }));
    expect(enabled([...gone, ...back])).toEqual({ a: true, b: false });
  });

  it("disables every scenario when the set is gone, keeping its judge and criteria", () => {
    const events = given(evaluationAggregate, synced as EventInput[]).when(sync([]));
    expect(events[0].data).toMatchObject({ disabled: ["a", "b"], scenarios: [] });
    const own = [{ key: "short", type: "min_length", config: { chars: 10 } }];
    const judge = { kind: "llm", model: "gpt-5" };
    const ownCriteria = [created("e1", { catalog: REF_A, criteria: own, judge }), replaced([record("a", 0)])];
    expect(given(evaluationAggregate, ownCriteria).when(sync([])).at(-1)).toMatchObject({ type: "CatalogSetSynced", data: { criteria: own, judge } });
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

  it("records again when the evaluation's own judge or criteria change, so the next import's sync keeps the new ones", () => {
    const [first] = given(catalogAggregate, [imported(DIGEST_A)]).when(record(DIGEST_A));
    const judge = { kind: "llm", model: "gpt-5" };
    expect(given(catalogAggregate, [imported(DIGEST_A), first]).when({ ...record(DIGEST_A), judge })).toEqual([
      { type: "CatalogSetMaterialized", data: { evaluation_id: "e1", product_key: "triage", set_key: "smoke", include_production_only: false, judge, criteria: null } },
    ]);
  });

  it("refuses a removed catalog as not found, naming fromCatalogSet", () => {
    const removed: EventInput = { type: "CatalogRemoved", data: { tenant: "acme", key: "support_desk", digest: DIGEST_A } };
    expect(() => given(catalogAggregate, [imported(DIGEST_A), removed]).when(record(DIGEST_A))).toThrow(
      expect.objectContaining({ code: "not_found", field: "fromCatalogSet", message: 'No catalog "support_desk"' }),
    );
  });
});
