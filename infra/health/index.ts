export { databaseAt, eventStoreCheck, READINESS_DEADLINE_MS, readinessOf, type Readiness, type ReadinessCheck } from "./readinessChecks.js";
export { startProbeServer, type ProbeServer } from "./probeServer.js";
export { healthPortFromEnv, type HealthPort } from "./healthPort.js";
