// Catalog re-materialization (reference-platform feature 34, §3 rule 10, §7 behaviour 14): an
// evaluation made from a catalog set follows that set. Two ways in, one rule:
//  - materializeCatalogSet (createEvaluation fromCatalogSet, new or existing evaluation) syncs
//    the evaluation to the set's current import, then records on the catalog's stream that it
//    follows the set (CatalogSetMaterialized), at that digest;
//  - syncCatalogEvaluations (after every import, changed or not) syncs every evaluation the
//    catalog's stream lists, so a re-import never leaves one running stale prompts. Given an
//    EvaluationDirectory, it first records the evaluations made from the catalog's sets before
//    sets were followed (no CatalogSetMaterialized: legacyMaterialization.ts), so they follow too.
// Why the list lives on the catalog's stream, not in a read model: the import and the record
// are decided on one stream, so they are ordered. A record decided on a digest older than the
// stream's is refused and the creation syncs again; a record that lands first is in the state
// the import's sync reads. Nothing lags, and only the importing tenant's stream is read.
// Syncing is idempotent (SyncCatalogSet appends nothing when nothing differs), so syncing after
// a no-op import too costs reads only, and heals a sync a crash cut short.
import type { EventStore, LogPosition } from "../../ports/eventStore.js";
import { DomainError } from "../../events/domainError.js";
import type { CriterionData, JudgeData } from "../../events/shared.js";
import type { EvaluationDirectory } from "../../ports/evaluationDirectory.js";
import { catalogStream, evaluationStream } from "../../events/streams.js";
import { DEFAULT_RETRIES, handleCommand, loadAggregate, type HandledCommand, type HandleOptions } from "../handleCommand.js";
import { evaluationAggregate } from "../evaluation/evaluationAggregate.js";
import type { EvaluationState } from "../evaluation/evaluationState.js";
import { catalogAggregate, type CatalogState, type Materialization } from "./catalogAggregate.js";
import { catalogSetSuite } from "./catalogSetSuite.js";
import { legacyMaterialization } from "./legacyMaterialization.js";

export { catalogSetSuite, type CatalogSetSuite } from "./catalogSetSuite.js";

type Options = Omit<HandleOptions<never>, "decideContext">;

/** Syncs one evaluation to the catalog's last import (which must be the tenant's and active). */
function syncEvaluation(store: EventStore, catalog: CatalogState, m: Materialization, options: Options): Promise<HandledCommand<EvaluationState>> {
  const suite = catalogSetSuite(catalog.products, m.product_key, m.set_key, m.include_production_only);
  const command = {
    type: "SyncCatalogSet",
    evaluation_id: m.evaluation_id,
    tenant: catalog.tenant,
    catalog: { catalog_key: catalog.key, product_key: m.product_key, set_key: m.set_key, digest: catalog.digest },
    catalog_import: catalog.imports,
    // The creation's own choice, else the set's; the set gone, the evaluation keeps its own.
    judge: m.judge ?? suite?.judge ?? null,
    criteria: m.criteria ?? suite?.criteria ?? null,
    scenarios: suite?.scenarios ?? [],
  };
  return handleCommand(store, evaluationAggregate, evaluationStream(m.evaluation_id), command, options);
}

export type MaterializeRequest = Omit<Materialization, "include_production_only" | "judge" | "criteria"> & {
  tenant: string;
  catalog_key: string;
  include_production_only: boolean;
  /** What the creation itself chose; null follows the set. */
  judge: JudgeData | null;
  criteria: CriterionData[] | null;
};

/**
 * Syncs an existing evaluation to a set's current import and records that it follows the set.
 * The set must hold scenarios for the caller to have got here (createEvaluation refuses one that
 * selects none before creating anything).
 */
export async function materializeCatalogSet(store: EventStore, request: MaterializeRequest, options: Options): Promise<HandledCommand<EvaluationState>> {
  const streamId = catalogStream(request.tenant, request.catalog_key);
  const { tenant, catalog_key, ...materialization } = request;
  for (let attempt = 1; ; attempt++) {
    const { state } = await loadAggregate(store, catalogAggregate, streamId, options.registry);
    if (state.status !== "active") throw DomainError.notFound(`No catalog "${catalog_key}"`, "fromCatalogSet");
    const synced = await syncEvaluation(store, state, materialization, options);
    try {
      await handleCommand(store, catalogAggregate, streamId, { type: "RecordMaterialization", tenant, key: catalog_key, digest: state.digest, ...materialization }, options);
      return synced;
    } catch (error) {
      // Imported again meanwhile: sync to the newer import and record at its digest.
      if (!(error instanceof DomainError && error.code === "conflict" && error.field === "digest") || attempt > DEFAULT_RETRIES) throw error;
    }
  }
}

export interface SyncedEvaluations {
  /** Evaluations the sync changed (suite, judge, criteria or digest), in the order recorded. */
  evaluationIds: string[];
  /** Log position of the last event appended, null when none was. */
  position: LogPosition | null;
}

/**
 * The catalog's evaluations the directory knows that its stream does not list (made before sets
 * were followed), each synced and recorded as a creation from the set is today; their ids.
 * Recorded through materializeCatalogSet, so a concurrent import or adoption is decided as a
 * creation's is (a record on an older digest is refused and synced again; the same record twice
 * appends nothing).
 */
async function adoptCatalogEvaluations(store: EventStore, directory: EvaluationDirectory, catalog: CatalogState, options: Options): Promise<SyncedEvaluations> {
  const result: SyncedEvaluations = { evaluationIds: [], position: null };
  const [tenant, key] = [catalog.tenant as string, catalog.key as string];
  for (const id of await directory.evaluationsOfCatalog(tenant, key)) {
    if (catalog.materialized.has(id)) continue;
    const { state } = await loadAggregate(store, evaluationAggregate, evaluationStream(id), options.registry);
    const materialization = await legacyMaterialization(store, tenant, key, state, catalog.products, options.registry);
    if (!materialization) continue;
    const synced = await materializeCatalogSet(store, { tenant, catalog_key: key, ...materialization }, options);
    if (synced.position) result.evaluationIds.push(id);
    result.position = synced.position ?? result.position;
  }
  return result;
}

/**
 * After an import: syncs every evaluation that follows one of the catalog's sets (none when it is
 * not active), adopting first those the directory finds that predate following.
 */
export async function syncCatalogEvaluations(
  store: EventStore, tenant: string, catalogKey: string, options: Options & { directory?: EvaluationDirectory },
): Promise<SyncedEvaluations> {
  const load = () => loadAggregate(store, catalogAggregate, catalogStream(tenant, catalogKey), options.registry);
  let { state } = await load();
  if (state.status !== "active") return { evaluationIds: [], position: null };
  const result = options.directory ? await adoptCatalogEvaluations(store, options.directory, state, options) : { evaluationIds: [], position: null };
  if (result.evaluationIds.length) ({ state } = await load());
  for (const materialization of state.materialized.values()) {
    const synced = await syncEvaluation(store, state, materialization, options);
    if (synced.position && !result.evaluationIds.includes(materialization.evaluation_id)) result.evaluationIds.push(materialization.evaluation_id);
    result.position = synced.position ?? result.position;
  }
  return result;
}
