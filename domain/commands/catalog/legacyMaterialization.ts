// What CatalogSetMaterialized an evaluation made from a catalog set before sets were followed
// would hold. Its creation recorded only the set and digest it came from (EvaluationCreated's
// catalog), not whether it kept production_only scenarios, nor whether its judge and criteria
// were the set's or named by its creator. Both are read off the import it was made from: a
// judge or criteria other than that import's set gave were named, and stay pinned over the set's
// (a sync never replaces a choice someone made); ones equal to the set's follow the set.
import type { EventStore } from "../../ports/eventStore.js";
import { eventRegistry, type EventData, type EventRegistry } from "../../events/registry.js";
import type { CriterionData } from "../../events/shared.js";
import { catalogStream } from "../../events/streams.js";
import { DEFAULT_CRITERIA } from "../evaluation/evaluationAggregate.js";
import type { EvaluationState } from "../evaluation/evaluationState.js";
import { stableJson } from "../evaluation/scenarioChanges.js";
import { forEachStreamPage } from "../handleCommand.js";
import type { Materialization } from "./catalogAggregate.js";
import { catalogSetSuite } from "./catalogSetSuite.js";

type Products = EventData<"CatalogImported">["products"];

/** The products of the catalog's import with this digest (the last such), null when none has it. */
async function productsAt(store: EventStore, tenant: string, key: string, digest: string, registry: EventRegistry): Promise<Products | null> {
  let found: Products | null = null;
  await forEachStreamPage(store, catalogStream(tenant, key), (page) => {
    for (const recorded of page) {
      const event = registry.parseRecorded(recorded);
      if (event.type === "CatalogImported" && event.data.digest === digest) found = event.data.products;
      if (found) return false;
    }
  }, "backwards");
  return found;
}

/** Criteria as an evaluation holds them: none means the defaults. */
const held = (criteria: CriterionData[]) => stableJson(criteria.length ? criteria : DEFAULT_CRITERIA);

/**
 * The materialization to record for an evaluation of one of this catalog's sets that has none;
 * null when the evaluation is not the tenant's or not made from this catalog. `current` is the
 * catalog's last import, read when the one it was made from is no longer found.
 */
export async function legacyMaterialization(
  store: EventStore, tenant: string, catalogKey: string, evaluation: EvaluationState, current: Products, registry: EventRegistry = eventRegistry,
): Promise<Materialization | null> {
  const ref = evaluation.catalog;
  if (!evaluation.exists || evaluation.tenant !== tenant || !evaluation.evaluationId || !ref || ref.catalog_key !== catalogKey) return null;
  const products = (await productsAt(store, tenant, catalogKey, ref.digest, registry)) ?? current;
  const whole = catalogSetSuite(products, ref.product_key, ref.set_key, true);
  const productionOnly = new Set(whole?.set.scenarios.filter((s) => s.production_only).map((s) => s.key) ?? []);
  const includeProductionOnly = evaluation.scenarios.some((s) => productionOnly.has(s.key));
  const suite = catalogSetSuite(products, ref.product_key, ref.set_key, includeProductionOnly);
  return {
    evaluation_id: evaluation.evaluationId,
    product_key: ref.product_key,
    set_key: ref.set_key,
    include_production_only: includeProductionOnly,
    judge: suite && stableJson(suite.judge) === stableJson(evaluation.judge) ? null : evaluation.judge,
    criteria: suite && held(suite.criteria) === held(evaluation.criteria) ? null : evaluation.criteria,
  };
}
