// `<catalog>/<product>/<set>` -> what CreateEvaluation needs: the set's scenarios, judge and
// criteria and the catalog reference, read from the catalog's last import on its stream.
// Product and set keys may hold "/" (reference-platform §2.1 KEY_FORMAT): the catalog key
// cannot, so it ends at the first "/", and the rest is matched against the catalog's own
// `<product>/<set>` pairs, which an import keeps distinct (storableCatalog).
import { isValidId, lastCatalogImport, type EventData } from "@verdict/domain";
import type { ApiContext } from "../../server/context.js";
import { ApiError, notFound, shownId } from "../../server/errors.js";
import { NOTHING_MATCHED, withoutProductionFlag } from "./scenarioInputs.js";

type ProductData = EventData<"CatalogImported">["products"][number];
type SetData = ProductData["sets"][number];

export async function evaluationFromCatalogSet(context: ApiContext, path: string, includeProductionOnly: boolean) {
  const slash = path.indexOf("/");
  const catalogKey = path.slice(0, slash);
  const rest = path.slice(slash + 1);
  if (slash < 0 || !rest.includes("/") || path.split("/").some((p) => p.trim() === "")) {
    throw new ApiError("VALIDATION", `fromCatalogSet must be <catalog>/<product>/<set> (got ${JSON.stringify(path)})`, "fromCatalogSet");
  }
  if (!isValidId(catalogKey)) throw notFound("catalog", catalogKey, "fromCatalogSet");
  const imported = await lastCatalogImport(context.deps.store, context.principal.tenant, catalogKey);
  if (!imported) throw notFound("catalog", catalogKey, "fromCatalogSet");
  const { product, set } = setAt(imported.products, catalogKey, rest);
  const [productKey, setKey] = [product.key, set.key];
  const scenarios = set.scenarios.filter((s) => includeProductionOnly || !s.production_only).map(withoutProductionFlag);
  if (scenarios.length === 0) {
    throw new ApiError("VALIDATION", NOTHING_MATCHED, "fromCatalogSet");
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

/** Products a NOT_FOUND names at most: naming every one, `a/a/a/…` of 8 KB answered 16 MB. */
const PRODUCTS_NAMED = 5;

/**
 * The product and set whose `<product>/<set>` is `rest`. None: NOT_FOUND naming each product
 * `rest` could start with (`no product "a" or "a/b"`, the first PRODUCTS_NAMED) or, when one
 * exists, the set it lacks.
 */
function setAt(products: readonly ProductData[], catalogKey: string, rest: string): { product: ProductData; set: SetData } {
  const candidates = products.filter((p) => rest.startsWith(`${p.key}/`));
  const found = candidates.flatMap((product) => product.sets.filter((s) => s.key === rest.slice(product.key.length + 1)).map((set) => ({ product, set })));
  // Two matches only in a catalog imported before paths were kept distinct: name both.
  if (found.length > 1) {
    const both = found.map(({ product, set }) => `set "${set.key}" of product "${product.key}"`).join(" and ");
    throw new ApiError("VALIDATION", `fromCatalogSet ${catalogKey}/${rest} could name ${both}; re-import the catalog with one of them renamed`, "fromCatalogSet");
  }
  if (found.length === 1) return found[0];
  if (candidates.length === 0) {
    const parts = rest.split("/").slice(0, -1);
    const prefixes = parts.slice(0, PRODUCTS_NAMED).map((_, i) => JSON.stringify(shownId(parts.slice(0, i + 1).join("/"))));
    const more = parts.length > PRODUCTS_NAMED ? ` (or ${parts.length - PRODUCTS_NAMED} longer ones)` : "";
    throw new ApiError("NOT_FOUND", `no product ${prefixes.join(" or ")}${more} in catalog ${catalogKey}`, "fromCatalogSet");
  }
  const missing = candidates.map((p) => `no set "${shownId(rest.slice(p.key.length + 1))}" in product "${p.key}"`).join(", and ");
  throw new ApiError("NOT_FOUND", `${missing} of catalog ${catalogKey}`, "fromCatalogSet");
}
