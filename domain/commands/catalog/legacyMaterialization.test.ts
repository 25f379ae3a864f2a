// Evaluations an older Verdict made (EvaluationCreated on their own stream, as createEvaluation
// wrote before names were reserved and sets followed): a catalog's sync, given a directory,
// records them as following their set and syncs them; createEvaluation, given one, finds their
// names taken.
import { beforeEach, describe, expect, it } from "vitest";
import { catalogStream, evaluationNameStream, evaluationStream } from "../../events/streams.js";
import { createEvaluation } from "../createEvaluation.js";
import { adoptEvaluationName } from "../evaluation/adoptEvaluationName.js";
import { evaluationAggregate } from "../evaluation/evaluationAggregate.js";
import { evaluationsInLog } from "../evaluation/evaluationsInLog.js";
import { handleCommand, loadAggregate } from "../handleCommand.js";
import { fixedClock, sequentialIds } from "../testing/fixed.js";
import { catalogImport, DIGEST_A, DIGEST_B, scenario } from "../testing/fixtures.js";
import { InMemoryEventStore } from "../testing/inMemoryEventStore.js";
import { catalogAggregate } from "./catalogAggregate.js";
import { materializeCatalogSet, syncCatalogEvaluations } from "./catalogSync.js";
import type { EvaluationDirectory } from "../../ports/evaluationDirectory.js";

let store: InMemoryEventStore;
const deps = () => ({ clock: fixedClock(), ids: sequentialIds(), context: { tenant: "acme", actor: "user-1" } });
const REF = { catalog_key: "support_desk", product_key: "triage", set_key: "smoke", digest: DIGEST_A };

/** As createEvaluation wrote before 43c48db: the evaluation's stream alone. */
function oldEvaluation(id: string, extra: Record<string, unknown> = {}) {
  const command = { type: "CreateEvaluation", evaluation_id: id, tenant: "acme", agent: "SupportAgent", name: "support_desk/triage/smoke", ...extra };
  return handleCommand(store, evaluationAggregate, evaluationStream(id), command, deps());
}

const materialized = async () => (await store.readStream(catalogStream("acme", "support_desk"))).filter((e) => e.type === "CatalogSetMaterialized").map((e) => e.data);

/**
 * A directory gone wrong (stale, or a bug in its query) that lists globex's evaluations first for
 * acme too: the port only says where to look, and each candidate's own stream decides.
 */
function everyTenant(): EvaluationDirectory {
  const log = evaluationsInLog(store);
  const both = async (ask: (tenant: string) => Promise<string[]>) => [...(await ask("globex")), ...(await ask("acme"))];
  return {
    evaluationsNamed: (_tenant, agent, name) => both((tenant) => log.evaluationsNamed(tenant, agent, name)),
    evaluationsOfCatalog: (_tenant, key) => both((tenant) => log.evaluationsOfCatalog(tenant, key)),
  };
}

/**
 * A directory gone wrong for the agent or the name (a query that drops one, or matches names
 * case-insensitively) that lists `wrong` first whatever it is asked: each candidate's own stream
 * still decides.
 */
function listingFirst(...wrong: string[]): EvaluationDirectory {
  const log = evaluationsInLog(store);
  return {
    evaluationsNamed: async (tenant, agent, name) => [...wrong, ...(await log.evaluationsNamed(tenant, agent, name))],
    evaluationsOfCatalog: async (tenant, key) => [...wrong, ...(await log.evaluationsOfCatalog(tenant, key))],
  };
}

beforeEach(async () => {
  store = new InMemoryEventStore();
  await handleCommand(store, catalogAggregate, catalogStream("acme", "support_desk"), catalogImport(DIGEST_A, ["a", "b"]), deps());
});

describe("syncCatalogEvaluations with a directory", () => {
  it("records an evaluation made from the set before sets were followed, and syncs it to the new import", async () => {
    await oldEvaluation("old", { catalog: REF, scenarios: [scenario("a"), scenario("b")] });
    await handleCommand(store, catalogAggregate, catalogStream("acme", "support_desk"), catalogImport(DIGEST_B, ["a"]), deps());
    const synced = await syncCatalogEvaluations(store, "acme", "support_desk", { ...deps(), directory: evaluationsInLog(store) });
    expect(synced.evaluationIds).toEqual(["old"]);
    expect(await materialized()).toEqual([{ evaluation_id: "old", product_key: "triage", set_key: "smoke", include_production_only: false, judge: null, criteria: null }]);
    const events = await store.readStream(evaluationStream("old"));
    // Numbered as the catalog's second import, so an older import's sync landing after it is refused.
    expect(events.at(-1)).toMatchObject({ type: "CatalogSetSynced", data: { catalog: { ...REF, digest: DIGEST_B }, dropped: ["b"], catalog_import: 2 } });
    // Recorded once: the next sync finds it on the catalog's stream.
    await syncCatalogEvaluations(store, "acme", "support_desk", { ...deps(), directory: evaluationsInLog(store) });
    expect(await materialized()).toHaveLength(1);
  });

  it("records an evaluation already as its set holds it without naming it synced (nothing about it changed)", async () => {
    await oldEvaluation("old", { catalog: REF, scenarios: [scenario("a"), scenario("b")] });
    const synced = await syncCatalogEvaluations(store, "acme", "support_desk", { ...deps(), directory: evaluationsInLog(store) });
    expect(synced.evaluationIds).toEqual([]);
    expect(await materialized()).toHaveLength(1);
  });

  it("keeps what a creation from the set recorded: a judge it named, even the set's own, stays pinned", async () => {
    await oldEvaluation("made", { catalog: REF, scenarios: [scenario("a"), scenario("b")] });
    const judge = { kind: "rules" as const, model: null };
    const request = { tenant: "acme", catalog_key: "support_desk", evaluation_id: "made", product_key: "triage", set_key: "smoke", include_production_only: false, judge, criteria: null };
    await materializeCatalogSet(store, request, deps());
    await syncCatalogEvaluations(store, "acme", "support_desk", { ...deps(), directory: evaluationsInLog(store) });
    expect(await materialized()).toEqual([{ evaluation_id: "made", product_key: "triage", set_key: "smoke", include_production_only: false, judge, criteria: null }]);
  });

  it("a creation from the set that an import races syncs again to the newer import and records there", async () => {
    await oldEvaluation("made", { catalog: REF, scenarios: [scenario("a")] });
    // The import lands between the creation's sync (to DIGEST_A) and its record on the catalog's stream.
    const append = store.append.bind(store);
    let raced = false;
    store.append = async (streamId, events, options) => {
      const appended = await append(streamId, events, options);
      if (!raced && streamId === evaluationStream("made")) {
        raced = true;
        await handleCommand(store, catalogAggregate, catalogStream("acme", "support_desk"), catalogImport(DIGEST_B, ["a"]), deps());
      }
      return appended;
    };
    const request = { tenant: "acme", catalog_key: "support_desk", evaluation_id: "made", product_key: "triage", set_key: "smoke", include_production_only: false, judge: null, criteria: null };
    await materializeCatalogSet(store, request, deps());
    expect(raced).toBe(true);
    const { state } = await loadAggregate(store, evaluationAggregate, evaluationStream("made"));
    expect(state.catalog).toEqual({ ...REF, digest: DIGEST_B });
    expect(state.scenarios.map((s) => [s.key, s.enabled])).toEqual([["a", true], ["b", false]]);
    expect(await materialized()).toHaveLength(1);
  });

  it("gives up with the conflict when imports keep landing between its sync and its record, rather than retrying for ever", async () => {
    await oldEvaluation("made", { catalog: REF, scenarios: [scenario("a")] });
    const append = store.append.bind(store);
    let imports = 0;
    store.append = async (streamId, events, options) => {
      const appended = await append(streamId, events, options);
      // Twenty at most, so a retry with no limit ends (and is seen) instead of hanging the file.
      if (streamId === evaluationStream("made") && imports < 20) {
        const digest = (++imports).toString(16).padStart(64, "0");
        await handleCommand(store, catalogAggregate, catalogStream("acme", "support_desk"), catalogImport(digest, imports % 2 ? ["a"] : ["a", "b"]), deps());
      }
      return appended;
    };
    const request = { tenant: "acme", catalog_key: "support_desk", evaluation_id: "made", product_key: "triage", set_key: "smoke", include_production_only: false, judge: null, criteria: null };
    await expect(materializeCatalogSet(store, request, deps())).rejects.toMatchObject({ code: "conflict", field: "digest" });
    expect(imports).toBeLessThan(10);
    expect(await materialized()).toEqual([]);
  });

  it("disables every scenario of an evaluation whose set the new import no longer has, adding none", async () => {
    await oldEvaluation("old", { catalog: REF, scenarios: [scenario("a"), scenario("b")] });
    const withoutSet = { ...catalogImport(DIGEST_B, ["a"]), products: [{ key: "triage", name: "Triage agent", sets: [] }] };
    await handleCommand(store, catalogAggregate, catalogStream("acme", "support_desk"), withoutSet, deps());
    expect((await syncCatalogEvaluations(store, "acme", "support_desk", { ...deps(), directory: evaluationsInLog(store) })).evaluationIds).toEqual(["old"]);
    const { state } = await loadAggregate(store, evaluationAggregate, evaluationStream("old"));
    expect(state.scenarios.map((s) => [s.key, s.enabled])).toEqual([["a", false], ["b", false]]);
  });

  it("keeps a judge its creator named over the set's (pinned), as a creation naming one does", async () => {
    const judge = { kind: "llm", model: "gpt-5" };
    await oldEvaluation("named", { catalog: REF, scenarios: [scenario("a")], judge });
    await syncCatalogEvaluations(store, "acme", "support_desk", { ...deps(), directory: evaluationsInLog(store) });
    expect(await materialized()).toEqual([expect.objectContaining({ evaluation_id: "named", judge, criteria: null })]);
  });

  it("without a directory, syncs only what the catalog's stream lists (as before)", async () => {
    await oldEvaluation("old", { catalog: REF, scenarios: [scenario("a")] });
    expect((await syncCatalogEvaluations(store, "acme", "support_desk", deps())).evaluationIds).toEqual([]);
    expect(await materialized()).toEqual([]);
  });

  it("never takes another tenant's evaluation of a same-keyed catalog the directory lists: the import syncs, theirs is untouched", async () => {
    await oldEvaluation("theirs", { tenant: "globex", catalog: REF, scenarios: [scenario("a")] });
    const before = await store.readStream(evaluationStream("theirs"));
    await handleCommand(store, catalogAggregate, catalogStream("acme", "support_desk"), catalogImport(DIGEST_B, ["a"]), deps());
    const synced = await syncCatalogEvaluations(store, "acme", "support_desk", { ...deps(), directory: everyTenant() });
    expect(synced.evaluationIds).toEqual([]);
    expect(await materialized()).toEqual([]);
    expect(await store.readStream(evaluationStream("theirs"))).toEqual(before);
  });
});

describe("createEvaluation with a directory", () => {
  it("refuses the name an evaluation made before reservations holds, reserving it for that one", async () => {
    await oldEvaluation("old", { scenarios: [scenario("a")] });
    const create = { evaluation_id: "new", tenant: "acme", agent: "SupportAgent", name: "support_desk/triage/smoke", scenarios: [scenario("a")] };
    await expect(createEvaluation(store, create, { ...deps(), directory: evaluationsInLog(store) })).rejects.toMatchObject({ code: "conflict", field: "name" });
    expect(await store.streamVersion(evaluationStream("new"))).toBeNull();
    const reserved = await store.readStream(evaluationNameStream("acme", "SupportAgent", "support_desk/triage/smoke"));
    expect(reserved.map((e) => e.data.evaluation_id)).toEqual(["old"]);
  });

  it("does not count another tenant's evaluation the directory lists as holding the name: acme's is created and reserved", async () => {
    await oldEvaluation("theirs", { tenant: "globex", scenarios: [scenario("a")] });
    const create = { evaluation_id: "new", tenant: "acme", agent: "SupportAgent", name: "support_desk/triage/smoke", scenarios: [scenario("a")] };
    await createEvaluation(store, create, { ...deps(), directory: everyTenant() });
    const reserved = await store.readStream(evaluationNameStream("acme", "SupportAgent", "support_desk/triage/smoke"));
    expect(reserved.map((e) => e.data.evaluation_id)).toEqual(["new"]);
  });

  it.each([
    ["another agent", { agent: "BillingAgent" }],
    ["another name (one letter's case apart)", { name: "support_desk/triage/Smoke" }],
  ])("does not count acme's evaluation of %s the directory lists as holding the name: the new one is created and reserved", async (_, other) => {
    await oldEvaluation("other", { ...other, scenarios: [scenario("a")] });
    const create = { evaluation_id: "new", tenant: "acme", agent: "SupportAgent", name: "support_desk/triage/smoke", scenarios: [scenario("a")] };
    await createEvaluation(store, create, { ...deps(), directory: listingFirst("other") });
    const reserved = await store.readStream(evaluationNameStream("acme", "SupportAgent", "support_desk/triage/smoke"));
    expect(reserved.map((e) => e.data.evaluation_id)).toEqual(["new"]);
  });

  it("adopts once when adoptions race: one reservation, for the oldest", async () => {
    await oldEvaluation("first", { scenarios: [scenario("a")] });
    await oldEvaluation("second", { scenarios: [scenario("a")] });
    const wanted = { tenant: "acme", agent: "SupportAgent", name: "support_desk/triage/smoke" };
    await Promise.all([1, 2, 3].map(() => adoptEvaluationName(store, evaluationsInLog(store), wanted, deps())));
    const reserved = await store.readStream(evaluationNameStream("acme", "SupportAgent", "support_desk/triage/smoke"));
    expect(reserved.map((e) => e.data.evaluation_id)).toEqual(["first"]);
  });
});
