// A catalog's last import, read from the end of its stream: what an evaluation made from one of
// its sets takes (the API's fromCatalogSet) and what an import is compared with (the CLI's
// preview). Folding the stream from its start for this would read every earlier import (a CI
// pipeline importing on every commit makes hundreds, each up to 4 MB of JSON) only to keep the
// last; backwards, the read stops at the last CatalogImported or CatalogRemoved.
import type { EventStore } from "../../ports/eventStore.js";
import { eventRegistry, type EventData, type EventRegistry } from "../../events/registry.js";
import { catalogStream } from "../../events/streams.js";
import { forEachStreamPage } from "../handleCommand.js";

/** The catalog's last import, or null when it was never imported or was removed since. */
export async function lastCatalogImport(
  store: EventStore,
  tenant: string,
  key: string,
  registry: EventRegistry = eventRegistry,
): Promise<EventData<"CatalogImported"> | null> {
  let found: EventData<"CatalogImported"> | null = null;
  await forEachStreamPage(
    store,
    catalogStream(tenant, key),
    (page) => {
      for (let i = 0; i < page.length; i++) {
        const event = registry.parseRecorded(page[i]);
        if (event.type === "CatalogImported") found = event.data;
        if (event.type === "CatalogImported" || event.type === "CatalogRemoved") return false;
      }
    },
    "backwards",
  );
  return found;
}
