// Agents' releases, pinning, standing and pooled pass rates through the API, on the memory event
// store and PGlite read models (testing/agentReleaseCases.ts; agentReleases.int.test.ts: PostgreSQL).
import { agentReleaseCases } from "./testing/agentReleaseCases.js";

agentReleaseCases();
