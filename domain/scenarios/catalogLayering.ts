// Layering catalog documents by key (reference-core §4): products, then sets within a product,
// then scenarios within a set. Present fields replace, metadata merges, a scenario with the
// same key replaces the whole earlier one in place, new keys are appended. Entries layer in
// order within a document as across documents: two sets (or suite groups) with one key in the
// same product merge as they would from two files.
import { isBlank } from "../support/index.js";
import type { CatalogDoc, ProductDoc, SetDoc } from "./catalogDocument.js";

export function layerProducts(documents: CatalogDoc[]): ProductDoc[] {
  const products: ProductDoc[] = [];
  for (const doc of documents) {
    for (const product of doc.products) {
      const existing = products.find((candidate) => candidate.key === product.key);
      if (existing) mergeProduct(existing, product);
      else products.push(newProduct(product));
    }
  }
  return products;
}

/** A product seen for the first time: its sets still layer by key among themselves. */
function newProduct(product: ProductDoc): ProductDoc {
  const fresh: ProductDoc = { ...product, metadata: { ...product.metadata }, sets: [] };
  mergeSets(fresh, product.sets);
  return fresh;
}

function copySet(set: SetDoc): SetDoc {
  return { ...set, metadata: { ...set.metadata }, scenarios: [...set.scenarios] };
}

function mergeProduct(existing: ProductDoc, product: ProductDoc): void {
  if (!isBlank(product.name)) existing.name = product.name;
  if (!isBlank(product.description)) existing.description = product.description;
  if (!isBlank(product.agent)) existing.agent = product.agent;
  Object.assign(existing.metadata, product.metadata);
  mergeSets(existing, product.sets);
}

function mergeSets(product: ProductDoc, sets: readonly SetDoc[]): void {
  for (const set of sets) {
    const current = product.sets.find((candidate) => candidate.key === set.key);
    if (current) mergeSet(current, set);
    else product.sets.push(copySet(set));
  }
}

function mergeSet(existing: SetDoc, set: SetDoc): void {
  if (!isBlank(set.name)) existing.name = set.name;
  if (!isBlank(set.description)) existing.description = set.description;
  if (!isBlank(set.judge)) existing.judge = set.judge;
  if (!isBlank(set.criteria)) existing.criteria = set.criteria;
  Object.assign(existing.metadata, set.metadata);
  for (const scenario of set.scenarios) {
    const index = existing.scenarios.findIndex((candidate) => candidate.key === scenario.key);
    if (index === -1) existing.scenarios.push(scenario);
    else existing.scenarios[index] = scenario;
  }
}
