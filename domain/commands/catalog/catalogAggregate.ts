// Stream `catalog-<tenant>.<key>`. The document is the truth: importing the same canonical
// document again (same digest) appends nothing.
import type { Aggregate } from "../aggregate.js";
import { DomainError } from "../../events/domainError.js";
import type { EventInput } from "../../events/registry.js";
import { CATALOG_MAX_BYTES, CATALOG_MAX_SCENARIOS, CatalogCommand, type ImportCatalog } from "./catalogCommands.js";

export interface CatalogState {
  status: "none" | "active" | "removed";
  tenant: string | null;
  key: string | null;
  digest: string | null;
  imports: number;
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

export const catalogAggregate: Aggregate<CatalogState, CatalogCommand> = {
  name: "catalog",
  commandSchema: CatalogCommand,
  initialState: () => ({ status: "none", tenant: null, key: null, digest: null, imports: 0 }),

  evolve(state, event) {
    switch (event.type) {
      case "CatalogImported":
        return { status: "active", tenant: event.data.tenant, key: event.data.key, digest: event.data.digest, imports: state.imports + 1 };
      case "CatalogRemoved":
        return { ...state, status: "removed", digest: null };
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
    }
  },

  // An import decides from the document alone, so re-deciding after a concurrent write is safe.
  retryOnConflict: () => true,
};
