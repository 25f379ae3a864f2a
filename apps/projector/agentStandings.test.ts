// Agents, standings and pooled pass rates on PGlite read models and the memory event store
// (testing/standingCases.ts; agentStandings.int.test.ts runs the same on PostgreSQL).
import { createMemoryEventStore } from "@verdict/infra";
import { openTestReadModels } from "./testing/testReadModels.js";
import { standingCases } from "./testing/standingCases.js";

standingCases(async () => {
  const read = await openTestReadModels();
  return { read, store: async () => createMemoryEventStore(), close: () => read.close() };
});
