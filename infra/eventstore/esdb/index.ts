// The EventStoreDB adapter, apart from infra/eventstore's index so that importing the other
// adapters does not load its gRPC client.
export { createEsdbEventStore, type EsdbEventStoreOptions } from "./esdbEventStore.js";
