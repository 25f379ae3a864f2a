// What importing a catalog would change against the last import on its stream, scenario by
// scenario (`<product>/<set>/<key>`): added, updated, unchanged, removed. Used by
// `verdict catalogs import --preview`, which writes nothing.
import { catalogStream, eventRegistry, readWholeStream, type Catalog, type EventData, type EventStore } from "@verdict/domain";

export interface CatalogDiff {
  key: string;
  digest: string;
  previousDigest: string | null;
  added: string[];
  updated: string[];
  unchanged: string[];
  removed: string[];
}

/** The catalog's last import, or null when it was never imported (or was removed since). */
export async function lastImport(store: EventStore, tenant: string, key: string): Promise<EventData<"CatalogImported"> | null> {
  let imported: EventData<"CatalogImported"> | null = null;
  for (const recorded of await readWholeStream(store, catalogStream(tenant, key))) {
    const event = eventRegistry.parseRecorded(recorded);
    if (event.type === "CatalogImported") imported = event.data;
    if (event.type === "CatalogRemoved") imported = null;
  }
  return imported;
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function diffCatalog(catalog: Catalog, previous: EventData<"CatalogImported"> | null): CatalogDiff {
  const before = new Map<string, string>();
  for (const product of previous?.products ?? []) {
    for (const set of product.sets) for (const scenario of set.scenarios) before.set(`${product.key}/${set.key}/${scenario.key}`, stable(scenario));
  }
  const diff: CatalogDiff = { key: catalog.key, digest: catalog.digest, previousDigest: previous?.digest ?? null, added: [], updated: [], unchanged: [], removed: [] };
  const seen = new Set<string>();
  for (const product of catalog.products) {
    for (const set of product.sets) {
      for (const scenario of set.scenarios) {
        const id = `${product.key}/${set.key}/${scenario.key}`;
        seen.add(id);
        const old = before.get(id);
        if (old === undefined) diff.added.push(id);
        else if (old === stable(scenario.toJSON())) diff.unchanged.push(id);
        else diff.updated.push(id);
      }
    }
  }
  for (const id of before.keys()) if (!seen.has(id)) diff.removed.push(id);
  return diff;
}

export function diffText(diff: CatalogDiff): string {
  const lines = [
    `catalog ${diff.key}: digest ${diff.digest}${diff.previousDigest === null ? " (new catalog)" : diff.previousDigest === diff.digest ? " (unchanged)" : ` (was ${diff.previousDigest})`}`,
  ];
  for (const [label, keys] of [["added", diff.added], ["updated", diff.updated], ["unchanged", diff.unchanged], ["removed", diff.removed]] as const) {
    lines.push(`${label} (${keys.length})${keys.length ? `: ${keys.join(", ")}` : ""}`);
  }
  return `${lines.join("\n")}\n`;
}
