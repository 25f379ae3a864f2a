// Public surface of apps/projector: the projector (follow, catch up, rebuild), the read models'
// queries (ReadModels) and shapes, progress publication (ProgressBus: in-process or PostgreSQL
// LISTEN/NOTIFY), migrations and the checksum rebuild is checked with. The MikroORM entities
// (db/entities.ts) are loaded by openReadModels when it starts MikroORM, not exported here.
export { createProjector, DEFAULT_PROJECTOR_NAME, type Projector, type ProjectorOptions } from "./projector.js";
export { applyBatch, type ApplyOptions, type BatchOutcome, type UnknownEvent } from "./projection/applyBatch.js";
export { batchesOf } from "./batches.js";
export { rejectionLine, type RejectedEvent } from "./projection/rejections.js";
export { ReadModelsAheadOfLogError, ReadModelsOfAnotherLogError } from "./projection/sameLog.js";
export {
  PROJECTION_VERSION, projectedBy, ProjectionVersionChangedError, StaleReadModelsOfEmptyLogError, staleProjectionLine, type ProjectionState,
} from "./projection/projectionVersion.js";
export { ReadModels, type ReadModelsOptions } from "./readModels/readModels.js";
export { RebuildWatch, type RebuildWatchOptions } from "./readModels/rebuildWatch.js";
export { listPage, type ListPageArgs } from "./readModels/paging.js";
export type * from "./readModels/types.js";
export { openReadModels, readDatabaseUrlFromEnv, readDatabaseVariable, type OpenedReadModels, type OpenReadModelsOptions } from "./openReadModels.js";
export type { ProgressBus, ProgressGapListener, ProgressListener, RunProgress, LatestResult, RunStatus } from "./progress/progress.js";
export { createMemoryProgressBus } from "./progress/memoryProgressBus.js";
export { createPostgresProgressBus, PROGRESS_CHANNEL, type PostgresProgressBusOptions } from "./progress/postgresProgressBus.js";
export { migrateReadModels, readModelMigrations, type ReadModelMigration } from "./db/migrator.js";
export { readModelChecksum, type ReadModelChecksum } from "./db/checksum.js";
export { READ_MODEL_TABLES, type ReadModelTable } from "./db/tables.js";
export { sqlOf, ormDatabase, type Sql, type SqlDatabase } from "./db/sql.js";
export { migratedReadDump, openTestReadModels, resetReadModels } from "./testing/testReadModels.js";
export { sayingProgress, type ProgressWording } from "./progressLines.js";
export { projectorRetryLines } from "./retryLines.js";
