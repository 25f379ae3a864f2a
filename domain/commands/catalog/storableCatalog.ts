// What a catalog must be to be stored, beyond what the Catalog library reads (which, like the
// reference, takes any key): its key names its stream (`catalog-<tenant>.<key>`), each set is
// reached as `<catalog>/<product>/<set>` (fromCatalogSet, the evaluation's name), so no two
// sets may spell the same path, and a set's key is its scenarios' group, so it has the group's
// limit. Refused with the document's field, before anything is written.
import { ID_RULE, isValidId } from "../../events/streams.js";
import type { Catalog } from "../../scenarios/catalog.js";
import { InvalidDocument } from "../../scenarios/errors.js";

/** A stored scenario's group is at most this long (events/shared.ts scenarioData). */
const SET_KEY_MAX = 200;

/**
 * Returns the catalog when it can be stored. `fileName` is the file the CLI read it from: a key
 * taken from that name (the document sets no `catalog:`) is reported as such.
 */
export function storableCatalog(catalog: Catalog, fileName?: string): Catalog {
  checkKey(catalog, fileName);
  checkSets(catalog);
  return catalog;
}

// The key was refused naming `key`, a field no document has, and a key taken from a file name
// gave no hint that the file's name was the problem.
function checkKey(catalog: Catalog, fileName: string | undefined): void {
  const text: string = catalog.key;
  if (isValidId(catalog.key)) return;
  // Shown, but not whole: a 10 KB key repeated in the refusal buried its rule.
  const key = text.length > 120 ? `${JSON.stringify(text.slice(0, 100))}… (${text.length} characters)` : JSON.stringify(text);
  if (catalog.keyFromName && fileName) {
    throw new InvalidDocument(
      `the catalog's key ${key} comes from the file name ${fileName}, as the document sets no \`catalog:\`, and a stored catalog's key is ${ID_RULE}: set \`catalog:\` in the document to such a key${romanise(text)}`,
    );
  }
  throw new InvalidDocument(`${key} cannot key a stored catalog: a key is ${ID_RULE}${romanise(text)}`, { path: "catalog" });
}

/** A hint for a key in another script, which the rule's "ASCII letters" alone left to guess at. */
function romanise(key: string): string {
  return /[\u0080-\uffff]/.test(key) ? ` (write a name in another script romanised, \`catalog: tagengo\` for 多言語)` : "";
}

// Keys may hold "/" (reference-platform §2.1 KEY_FORMAT), so `a/b` + `c` and `a` + `b/c` would
// both be `a/b/c`: refused here, so a path names one set and fromCatalogSet can resolve it. A
// long set key was reported as `scenarios[0].group`, a field the document never wrote.
function checkSets(catalog: Catalog): void {
  const seen = new Map<string, string>();
  catalog.products.forEach((product, p) =>
    product.sets.forEach((set, s) => {
      if (set.key.length > SET_KEY_MAX) {
        throw new InvalidDocument(`must be at most ${SET_KEY_MAX} characters (it has ${set.key.length}): a set's key is the group of its scenarios`, {
          path: `products[${p}].sets[${s}].key`,
        });
      }
      const path = `${product.key}/${set.key}`;
      const here = `set "${set.key}" of product "${product.key}"`;
      const first = seen.get(path);
      if (first !== undefined) {
        throw new InvalidDocument(`${here} and ${first} are both ${catalog.key}/${path}, so that path could name either; rename one`, {
          path: `products[${p}].sets[${s}].key`,
        });
      }
      seen.set(path, here);
    }),
  );
}
