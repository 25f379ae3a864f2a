// Public surface of infra/eventstore: one factory per EventStore adapter (DESIGN.md "infra/").
// The EventStoreDB adapter is its own entry point, @verdict/infra/eventstore/esdb: its client
// brings gRPC and protobuf (~27 MB resident), which nothing else here needs.
export { createPostgresEventStore, migratePool, type PostgresEventStoreOptions } from "./postgres/postgresEventStore.js";
export { createPgliteEventStore, migratePglite, type PgliteEventStoreOptions } from "./pglite/pgliteEventStore.js";
export { createMemoryEventStore, type MemoryEventStoreOptions } from "./memory/memoryEventStore.js";
export { eventStoreMigrations, migrateEventStore, type Migration, type MigrationSession } from "./sql/migrator.js";
export { EventStoreInputError, MAX_PAYLOAD_BYTES, validateStreamId } from "./validation.js";
export { comparePositions } from "./position.js";
export { countedBytes, DEFAULT_MAX_PAGE_BYTES, type PageBudget } from "./page.js";
