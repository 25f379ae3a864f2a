// Public surface of @verdict/api: the HTTP server (GraphQL + subscriptions + REST reports), the
// schema, API keys, and the report rebuilt from a run's events.
import "reflect-metadata";
export { createApiServer, type ApiServer, type ApiServerOptions } from "./server/createApiServer.js";
export { byteLimit } from "./server/byteLimit.js";
export { DEFAULT_LIMITS, type ApiDeps, type ApiLimits, type ApiReadModels, type ApiContext } from "./server/context.js";
export { apiLimitsFromEnv, apiPortFromEnv } from "./server/limitsFromEnv.js";
export { corsOriginsFromEnv } from "./server/cors.js";
export { ApiError, type ApiErrorCode } from "./server/errors.js";
export { jsonOrTooLarge } from "./server/tooLargeJson.js";
export { buildApiSchema } from "./schema/buildApiSchema.js";
export { printApiSchema } from "./schema/printApiSchema.js";
export * from "./auth/index.js";
export { loadByHandle, loadRunHistory, type RunHistory } from "./report/runEvents.js";
export { rebuildReport, reportEnvelope } from "./report/rebuildReport.js";
export { importEnvelope, parseEnvelope, type ImportedEnvelope, type ReportEnvelope } from "./report/importEnvelope.js";
export { downloadName } from "./rest/reportRoutes.js";
