// The EvaluationDirectory read from the event log itself: every EvaluationCreated, in log order.
// A scan of the whole log's creations, so it is for tools without read models (the CLI's
// `catalogs import`, tests); the API asks its read models, which answer from an index.
import type { EvaluationDirectory } from "../../ports/evaluationDirectory.js";
import type { EventStore } from "../../ports/eventStore.js";
import { eventRegistry, type EventData, type EventRegistry } from "../../events/registry.js";
import { STREAM_PREFIXES } from "../../events/streams.js";

type Created = EventData<"EvaluationCreated">;

const PAGE = 200;

/** Every EvaluationCreated of the log that `keep` keeps, oldest first (log order). */
async function createdIds(store: EventStore, registry: EventRegistry, keep: (created: Created) => boolean): Promise<string[]> {
  const ids: string[] = [];
  const filter = { streamPrefixes: [STREAM_PREFIXES.evaluation], eventTypes: ["EvaluationCreated"] };
  for (let page = await store.readAll({ filter, limit: PAGE }); page.length; page = await store.readAll({ filter, limit: PAGE, after: page[page.length - 1].position })) {
    for (const recorded of page) {
      const event = registry.parseRecorded(recorded);
      if (event.type === "EvaluationCreated" && keep(event.data)) ids.push(event.data.evaluation_id);
    }
  }
  return ids;
}

export function evaluationsInLog(store: EventStore, registry: EventRegistry = eventRegistry): EvaluationDirectory {
  return {
    evaluationsNamed: (tenant, agent, name) => createdIds(store, registry, (d) => d.tenant === tenant && d.agent === agent && d.name === name),
    evaluationsOfCatalog: (tenant, catalogKey) => createdIds(store, registry, (d) => d.tenant === tenant && d.catalog?.catalog_key === catalogKey),
  };
}
