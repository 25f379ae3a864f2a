// Public surface of infra/eventstore: one factory per EventStore adapter (DESIGN.md "infra/").
export { createPostgresEventStore, migratePool, type PostgresEventStoreOptions } from "./postgres/postgresEventStore.js";
export { createPgliteEventStore, migratePglite, type PgliteEventStoreOptions } from "./pglite/pgliteEventStore.js";
export { createMemoryEventStore, type MemoryEventStoreOptions } from "./memory/memoryEventStore.js";
export { createEsdbEventStore, type EsdbEventStoreOptions } from "./esdb/esdbEventStore.js";
export { eventStoreMigrations, migrateEventStore, type Migration, type MigrationSession } from "./sql/migrator.js";
export { EventStoreInputError, MAX_PAYLOAD_BYTES, validateStreamId } from "./validation.js";
export { comparePositions } from "./position.js";
