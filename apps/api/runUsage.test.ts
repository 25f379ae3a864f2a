// A run's agent usage on the embedded read models (PGlite): its priced, unpriced, reported and
// estimated replays and its cost basis, as its report counts them (testing/runUsageCases.ts).
import { runUsageCases } from "./testing/runUsageCases.js";

runUsageCases();
