// The ImportCatalog command for a parsed Catalog: what it resolved (products, sets, scenarios,
// canonical YAML, digest), as the decider takes it. The API and the CLI both import this way, so
// a catalog that cannot be stored (storableCatalog.ts) is refused here whatever the caller.
import type { z } from "zod";
import type { Catalog } from "../../scenarios/catalog.js";
import type { catalogSource } from "../../events/catalogEvents.js";
import { storableCatalog } from "./storableCatalog.js";

export function importCatalogCommand(catalog: Catalog, tenant: string, source: z.input<typeof catalogSource>) {
  storableCatalog(catalog);
  return {
    type: "ImportCatalog",
    tenant,
    key: catalog.key,
    name: catalog.name,
    ...(catalog.description ? { description: catalog.description } : {}),
    digest: catalog.digest,
    canonical_yaml: catalog.toYaml(),
    source,
    metadata: { ...catalog.metadata },
    products: catalog.products.map((p) => ({
      key: p.key,
      name: p.name,
      ...(p.description ? { description: p.description } : {}),
      ...(p.agent ? { agent: p.agent } : {}),
      metadata: { ...p.metadata },
      sets: p.sets.map((s) => ({
        key: s.key,
        name: s.name,
        ...(s.description ? { description: s.description } : {}),
        judge: { ...s.judge },
        criteria: s.criteria.map((c) => ({ ...c })),
        metadata: { ...s.metadata },
        scenarios: s.scenarios.map((scenario) => scenario.toJSON()),
      })),
    })),
  };
}
