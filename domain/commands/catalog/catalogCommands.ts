// Catalog commands. ImportCatalog takes what Catalog already resolved (canonical YAML, digest,
// products -> sets -> scenarios) so the decider stays pure and parses nothing.
import { z } from "zod";
import { catalogProductData, catalogSource } from "../../events/catalogEvents.js";
import { criterionInput, idSchema, jsonObject, judgeData, nonBlank } from "../../events/shared.js";

/** Documents and scenario counts a catalog may hold (reference-platform feature 32). */
export const CATALOG_MAX_BYTES = 2_097_152;
export const CATALOG_MAX_SCENARIOS = 2000;

export const ImportCatalog = z.object({
  type: z.literal("ImportCatalog"),
  tenant: idSchema,
  key: idSchema,
  name: z.string(),
  description: z.string().optional(),
  digest: z.string().regex(/^[0-9a-f]{64}$/, "must be a lowercase hex SHA-256"),
  canonical_yaml: z.string().min(1, "must not be empty"),
  source: catalogSource,
  metadata: jsonObject.default({}),
  products: z.array(catalogProductData),
});
export type ImportCatalog = z.output<typeof ImportCatalog>;

export const RemoveCatalog = z.object({ type: z.literal("RemoveCatalog"), tenant: idSchema, key: idSchema });
export type RemoveCatalog = z.output<typeof RemoveCatalog>;

/** Records that an evaluation follows a set, at the digest it was synced to (CatalogSetMaterialized). */
export const RecordMaterialization = z.object({
  type: z.literal("RecordMaterialization"),
  tenant: idSchema,
  key: idSchema,
  digest: z.string(),
  evaluation_id: idSchema,
  product_key: nonBlank,
  set_key: nonBlank,
  include_production_only: z.boolean().default(false),
  judge: judgeData.nullable().default(null),
  criteria: z.array(criterionInput).nullable().default(null),
});
export type RecordMaterialization = z.output<typeof RecordMaterialization>;

export const CatalogCommand = z.discriminatedUnion("type", [ImportCatalog, RemoveCatalog, RecordMaterialization]);
export type CatalogCommand = z.output<typeof CatalogCommand>;
