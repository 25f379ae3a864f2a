// A catalog set as an evaluation takes it: its scenarios (production_only ones only when asked),
// its judge and its criteria. What a creation from the set starts with and what every sync of it
// brings (catalogSync.ts), and what a set-made evaluation older than syncing is compared with.
import type { EventData } from "../../events/registry.js";
import type { CriterionData, JudgeData } from "../../events/shared.js";

type Products = EventData<"CatalogImported">["products"];

export interface CatalogSetSuite {
  product: Products[number];
  set: Products[number]["sets"][number];
  /** The set's scenarios as an evaluation stores them: production_only ones only when asked, the flag dropped. */
  scenarios: Record<string, unknown>[];
  /** The set's judge (a model alone means llm), rules when it names none. */
  judge: JudgeData;
  criteria: CriterionData[];
}

/** A set of the import by its keys, as an evaluation takes it; null when the import has none. */
export function catalogSetSuite(products: Products, productKey: string, setKey: string, includeProductionOnly: boolean): CatalogSetSuite | null {
  const product = products.find((p) => p.key === productKey);
  const set = product?.sets.find((s) => s.key === setKey);
  if (!product || !set) return null;
  const scenarios = set.scenarios
    .filter((s) => includeProductionOnly || !s.production_only)
    .map(({ production_only: _flag, ...rest }) => rest as Record<string, unknown>);
  const named = set.judge as { kind?: string; model?: string | null };
  const judge = (named.kind || named.model
    ? { kind: named.kind ?? (named.model ? "llm" : "rules"), model: named.model ?? null }
    : { kind: "rules", model: null }) as JudgeData;
  return { product, set, scenarios, judge, criteria: set.criteria };
}
