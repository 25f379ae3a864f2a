// What importing a catalog would change against the last import on its stream: the catalog, each
// product, set and scenario (`catalog desk`, `product triage`, `set triage/smoke`, `scenario
// triage/smoke/refund`) added, updated (naming the fields), unchanged or removed. It compares
// what the import would record with what the last one recorded, so a set's judge or criteria,
// an empty set, or a reordering shows as the change it is. Used by `verdict catalogs import
// --preview`, which writes nothing.
import {
  CatalogImported, importCatalogCommand, lastCatalogImport, stableJson,
  type Catalog, type EventData,
} from "@verdict/domain";

type Imported = EventData<"CatalogImported">;
type Fields = Record<string, unknown>;

export interface CatalogDiff {
  key: string;
  digest: string;
  previousDigest: string | null;
  added: string[];
  updated: string[];
  unchanged: string[];
  removed: string[];
  /** The fields that changed, for each updated entry (e.g. `set triage/smoke` -> ["judge"]). */
  changed: Record<string, string[]>;
}

/** The catalog's last import, or null when it was never imported (or was removed since). */
export { lastCatalogImport as lastImport };

/**
 * What an import of the catalog would record, read as the event it becomes, so defaults are
 * filled in as in the stored one. Tenant and source are not compared: placeholders stand in.
 */
function wouldRecord(catalog: Catalog): Imported {
  const { type: _type, ...data } = importCatalogCommand(catalog, "preview", { kind: "file" });
  return CatalogImported.schema.parse({ ...data, scenario_count: 0 });
}

/** Field names ending so hold child keys in order; only the children on both sides count. */
const ORDER = " order";

/** Each part of an import by its entry name, with its own fields and its children's order. */
function entriesOf(imported: Imported | null): Map<string, Fields> {
  const entries = new Map<string, Fields>();
  if (!imported) return entries;
  const { name, description, metadata, products } = imported;
  entries.set(`catalog ${imported.key}`, { name, description, metadata, [`product${ORDER}`]: products.map((p) => p.key) });
  for (const { sets, key, ...product } of products) {
    entries.set(`product ${key}`, { ...product, [`set${ORDER}`]: sets.map((s) => s.key) });
    for (const { scenarios, key: setKey, ...set } of sets) {
      entries.set(`set ${key}/${setKey}`, { ...set, [`scenario${ORDER}`]: scenarios.map((s) => s.key) });
      for (const scenario of scenarios) entries.set(`scenario ${key}/${setKey}/${scenario.key}`, scenario);
    }
  }
  return entries;
}

function sameOrder(before: unknown, after: unknown): boolean {
  const [a, b] = [before, after].map((keys) => (Array.isArray(keys) ? (keys as string[]) : []));
  return stableJson(a.filter((key) => b.includes(key))) === stableJson(b.filter((key) => a.includes(key)));
}

function changedFields(before: Fields, after: Fields): string[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return names.filter((name) => (name.endsWith(ORDER) ? !sameOrder(before[name], after[name]) : stableJson(before[name]) !== stableJson(after[name])));
}

export function diffCatalog(catalog: Catalog, previous: Imported | null): CatalogDiff {
  const next = wouldRecord(catalog);
  // The same digest records nothing, whatever an older import's data looks like.
  const before = entriesOf(previous?.digest === next.digest ? next : previous);
  const after = entriesOf(next);
  const diff: CatalogDiff = { key: catalog.key, digest: catalog.digest, previousDigest: previous?.digest ?? null, added: [], updated: [], unchanged: [], removed: [], changed: {} };
  for (const [id, fields] of after) {
    const old = before.get(id);
    const changed = old ? changedFields(old, fields) : [];
    if (!old) diff.added.push(id);
    else if (changed.length) {
      diff.updated.push(id);
      diff.changed[id] = changed;
    } else diff.unchanged.push(id);
  }
  for (const id of before.keys()) if (!after.has(id)) diff.removed.push(id);
  markDocumentChange(diff);
  return diff;
}

/** A new digest always records a new import: when no part differs, the document itself did. */
function markDocumentChange(diff: CatalogDiff): void {
  if (diff.previousDigest === null || diff.previousDigest === diff.digest) return;
  if (diff.added.length || diff.updated.length || diff.removed.length) return;
  const id = `catalog ${diff.key}`;
  diff.unchanged = diff.unchanged.filter((entry) => entry !== id);
  diff.updated.push(id);
  diff.changed[id] = ["canonical document"];
}

export function diffText(diff: CatalogDiff): string {
  const lines = [
    `catalog ${diff.key}: digest ${diff.digest}${diff.previousDigest === null ? " (new catalog)" : diff.previousDigest === diff.digest ? " (unchanged)" : ` (was ${diff.previousDigest})`}`,
  ];
  const named = (id: string) => (diff.changed[id] ? `${id} (${diff.changed[id].join(", ")})` : id);
  for (const [label, ids] of [["added", diff.added], ["updated", diff.updated], ["unchanged", diff.unchanged], ["removed", diff.removed]] as const) {
    lines.push(`${label} (${ids.length})${ids.length ? `: ${ids.map(named).join(", ")}` : ""}`);
  }
  return `${lines.join("\n")}\n`;
}
