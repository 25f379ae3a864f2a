// `<catalog>/<product>/<set>` -> what CreateEvaluation needs: the set's scenarios, judge and
// criteria and the catalog reference, read from the catalog's last import on its stream.
import { catalogStream, eventRegistry, isValidId, readWholeStream, type EventData } from "@verdict/domain";
import type { ApiContext } from "../../server/context.js";
import { ApiError, notFound } from "../../server/errors.js";

export async function evaluationFromCatalogSet(context: ApiContext, path: string, includeProductionOnly: boolean) {
  const parts = path.split("/");
  if (parts.length !== 3 || parts.some((p) => p.trim() === "")) {
    throw new ApiError("VALIDATION", `fromCatalogSet must be <catalog>/<product>/<set> (got ${JSON.stringify(path)})`, "fromCatalogSet");
  }
  const [catalogKey, productKey, setKey] = parts;
  if (!isValidId(catalogKey)) throw notFound("catalog", catalogKey, "fromCatalogSet");
  const events = await readWholeStream(context.deps.store, catalogStream(context.principal.tenant, catalogKey));
  let imported: EventData<"CatalogImported"> | null = null;
  for (const recorded of events) {
    const event = eventRegistry.parseRecorded(recorded);
    if (event.type === "CatalogImported") imported = event.data;
    if (event.type === "CatalogRemoved") imported = null;
  }
  if (!imported) throw notFound("catalog", catalogKey, "fromCatalogSet");
  const product = imported.products.find((p) => p.key === productKey);
  if (!product) throw new ApiError("NOT_FOUND", `no product "${productKey}" in catalog ${catalogKey}`, "fromCatalogSet");
  const set = product.sets.find((s) => s.key === setKey);
  if (!set) throw new ApiError("NOT_FOUND", `no set "${setKey}" in product "${productKey}" of catalog ${catalogKey}`, "fromCatalogSet");
  const scenarios = set.scenarios.filter((s) => includeProductionOnly || !s.production_only);
  if (scenarios.length === 0) {
    throw new ApiError("VALIDATION", "No scenarios matched the import. Check the catalog or include_production_only selection.", "fromCatalogSet");
  }
  const judge = set.judge as { kind?: string; model?: string | null };
  return {
    name: path,
    ...(product.agent ? { agent: product.agent } : {}),
    ...(judge.kind || judge.model ? { judge: { kind: judge.kind ?? (judge.model ? "llm" : "rules"), model: judge.model ?? null } } : {}),
    criteria: set.criteria,
    catalog: { catalog_key: catalogKey, product_key: productKey, set_key: setKey, digest: imported.digest },
    scenarios,
  };
}
