// Dispatcher checkpoints: the port, memory and PostgreSQL implementations.
export { MemoryCheckpointStore, type Checkpoint, type CheckpointStore } from "./checkpointStore.js";
export { PostgresCheckpointStore } from "./postgresCheckpointStore.js";
