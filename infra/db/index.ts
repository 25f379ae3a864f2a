// Public surface of infra/db: read-database connections (PostgreSQL, or embedded PGlite served
// over the wire protocol) and the MikroORM setup on them.
export { openReadDatabase, type ReadDatabase, type ReadDatabaseOptions } from "./openReadDatabase.js";
export { createReadOrm, type ReadOrmOptions } from "./readOrm.js";
export { pgliteSqlDatabase, numberedPlaceholders, type PgliteSql, type PgliteSqlDatabase } from "./pgliteSql.js";
export { cachedPgliteDump } from "./pgliteDump.js";
export { openPgliteDataDir, pgliteDataDirExists } from "./pgliteDataDir.js";
export { HomeInUseError, homeCreatedLine, homeNamed, homeProblem, homeVariable, lockHome, verdictHome } from "./embeddedHome.js";
export { FileLockTimeoutError, withFileLock, type FileLockOptions } from "./fileLock.js";
