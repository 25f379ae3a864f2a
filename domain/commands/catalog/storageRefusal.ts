// A refusal of an import (text a database cannot store, the size of what it records, a key too
// long for a scenario's group) in the document's terms: its path in the catalog. The checks run
// on the command and the CatalogImported event, so their messages named those
// (`event CatalogImported: data.products[0]…`, `command is invalid: …`), which no document has.
import { DomainError } from "../../events/domainError.js";

/** The rule and document path of a validation refusal of an import, or null for any other error. */
export function storageRefusal(error: unknown): string | null {
  if (!(error instanceof DomainError) || error.code !== "validation") return null;
  return (
    error.message
      .replace(/^event CatalogImported: /, "")
      .replace(/^command is invalid: /, "")
      .replace(/^data\./, "")
      // A catalog's own metadata keys sit at the document's top level.
      .replace(/^metadata\./, "")
  );
}
