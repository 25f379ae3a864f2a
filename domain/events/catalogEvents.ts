// Stream `catalog-<tenant>.<key>`: the YAML document is the truth, so an import records the
// canonical text, its digest and what it resolved to (products -> sets -> scenarios).
import { z } from "zod";
import { defineEvent } from "./defineEvent.js";
import { criterionData, idSchema, jsonObject, judgeData, nonBlank, scenarioData, scenarioWrite } from "./shared.js";

export const catalogSetData = z.object({
  key: nonBlank,
  name: z.string(),
  description: z.string().optional(),
  judge: jsonObject.default({}),
  criteria: z.array(criterionData).default([]),
  metadata: jsonObject.default({}),
  scenarios: z.array(scenarioData),
});

export const catalogProductData = z.object({
  key: nonBlank,
  name: z.string(),
  description: z.string().optional(),
  agent: z.string().optional(),
  metadata: jsonObject.default({}),
  sets: z.array(catalogSetData),
});
export type CatalogProductData = z.output<typeof catalogProductData>;

export const catalogSource = z.object({
  kind: z.enum(["upload", "repository", "api", "file"]),
  path: z.string().optional(),
  ref: z.string().optional(),
});

const catalogImported = z.object({
  tenant: nonBlank,
  key: nonBlank,
  name: z.string(),
  description: z.string().optional(),
  digest: z.string().regex(/^[0-9a-f]{64}$/, "must be a lowercase hex SHA-256"),
  canonical_yaml: z.string().min(1, "must not be empty"),
  source: catalogSource,
  metadata: jsonObject.default({}),
  products: z.array(catalogProductData),
  scenario_count: z.number().int().nonnegative(),
});
// A new import's scenario positions fit the read models' integer column (see scenarioWrite).
const productsWrite = z.array(catalogProductData.extend({ sets: z.array(catalogSetData.extend({ scenarios: z.array(scenarioWrite) })) }));
export const CatalogImported = defineEvent("CatalogImported", 1, catalogImported, {}, catalogImported.extend({ products: productsWrite }));

export const CatalogRemoved = defineEvent(
  "CatalogRemoved",
  1,
  z.object({ tenant: nonBlank, key: nonBlank, digest: z.string() }),
);

/**
 * An evaluation follows one of this catalog's sets (createEvaluation fromCatalogSet): every
 * later import re-syncs it (catalogSync.ts). Recorded on the catalog's stream, decided at the
 * digest the evaluation was synced to, so an import racing the creation is never missed: the
 * record is refused on a newer digest and the creation syncs again. `judge` and `criteria` are
 * what the creation set itself (null: the set's are followed); the last record of an
 * evaluation is the one that counts.
 */
export const CatalogSetMaterialized = defineEvent(
  "CatalogSetMaterialized",
  1,
  z.object({
    evaluation_id: idSchema,
    product_key: nonBlank,
    set_key: nonBlank,
    include_production_only: z.boolean(),
    judge: judgeData.nullable(),
    criteria: z.array(criterionData).nullable(),
  }),
);
