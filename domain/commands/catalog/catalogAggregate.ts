// Stream `catalog-<tenant>.<key>`. The document is the truth: importing the same canonical
// document again (same digest) appends nothing.
import type { Aggregate } from "../aggregate.js";
import { DomainError } from "../../events/domainError.js";
import type { EventData, EventInput } from "../../events/registry.js";
import { stableJson } from "../evaluation/scenarioChanges.js";
import { CATALOG_MAX_BYTES, CATALOG_MAX_SCENARIOS, CatalogCommand, type ImportCatalog, type RecordMaterialization } from "./catalogCommands.js";

/** An evaluation that follows one of the catalog's sets, as last recorded for it. */
export type Materialization = EventData<"CatalogSetMaterialized">;

export interface CatalogState {
  status: "none" | "active" | "removed";
  tenant: string | null;
  key: string | null;
  digest: string | null;
  imports: number;
  /** The last import's products (empty once removed): what its sets hold now. */
  products: EventData<"CatalogImported">["products"];
  /** By evaluation id; kept when the catalog is removed (its evaluations are kept). */
  materialized: Map<string, Materialization>;
}

function decideImport(state: CatalogState, command: ImportCatalog): EventInput[] {
  const bytes = new TextEncoder().encode(command.canonical_yaml).length;
  if (bytes > CATALOG_MAX_BYTES) {
    throw DomainError.validation(`Import refused: the catalog document is ${bytes} bytes, over the 2 MB limit`, "canonical_yaml");
  }
  const scenarioCount = command.products.reduce((n, p) => n + p.sets.reduce((m, s) => m + s.scenarios.length, 0), 0);
  if (scenarioCount > CATALOG_MAX_SCENARIOS) {
    throw DomainError.validation(`Import refused: the catalog holds ${scenarioCount} scenarios, over the ${CATALOG_MAX_SCENARIOS} limit`, "products");
  }
  if (state.status === "active" && state.digest === command.digest) return [];
  const { type: _type, ...data } = command;
  return [{ type: "CatalogImported", data: { ...data, scenario_count: scenarioCount } }];
}

// Refused on any digest but the one the evaluation was just synced to: an import landed in
// between, so the caller syncs the evaluation again and records it again (catalogSync.ts).
function decideMaterialization(state: CatalogState, command: RecordMaterialization): EventInput[] {
  if (state.status !== "active") throw DomainError.notFound(`No catalog "${command.key}"`, "fromCatalogSet");
  if (state.digest !== command.digest) throw DomainError.conflict(`catalog ${command.key} was imported again while the evaluation was synced`, "digest");
  const { type: _type, tenant: _tenant, key: _key, digest: _digest, ...data } = command;
  const known = state.materialized.get(command.evaluation_id);
  if (known && stableJson(known) === stableJson(data)) return [];
  return [{ type: "CatalogSetMaterialized", data }];
}

export const catalogAggregate: Aggregate<CatalogState, CatalogCommand> = {
  name: "catalog",
  commandSchema: CatalogCommand,
  initialState: () => ({ status: "none", tenant: null, key: null, digest: null, imports: 0, products: [], materialized: new Map() }),

  evolve(state, event) {
    switch (event.type) {
      case "CatalogImported":
        return { ...state, status: "active", tenant: event.data.tenant, key: event.data.key, digest: event.data.digest, imports: state.imports + 1, products: event.data.products };
      case "CatalogRemoved":
        return { ...state, status: "removed", digest: null, products: [] };
      case "CatalogSetMaterialized":
        return { ...state, materialized: new Map(state.materialized).set(event.data.evaluation_id, event.data) };
      default:
        return state;
    }
  },

  decide(state, command) {
    switch (command.type) {
      case "ImportCatalog":
        return decideImport(state, command);
      case "RemoveCatalog":
        if (state.status !== "active") throw DomainError.notFound(`No catalog "${command.key}"`, "key");
        return [{ type: "CatalogRemoved", data: { tenant: command.tenant, key: command.key, digest: state.digest ?? "" } }];
      case "RecordMaterialization":
        return decideMaterialization(state, command);
    }
  },

  // An import decides from the document alone, so re-deciding after a concurrent write is safe;
  // a materialization re-decided on a newer digest is refused, and its caller syncs again.
  retryOnConflict: () => true,
};
