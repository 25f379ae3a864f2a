// A run's agent usage on PostgreSQL read models (and event store): the same cases as
// runUsage.test.ts on PGlite (testing/runUsageCases.ts).
import { createPostgresEventStore } from "@verdict/infra";
import { createTestDatabase } from "../../infra/services/testDatabase.js";
import { runUsageCases } from "./testing/runUsageCases.js";

runUsageCases({
  async open() {
    const db = await createTestDatabase("verdict_usage");
    return { readUrl: db.url, store: await createPostgresEventStore({ connectionString: db.url }), close: () => db.drop() };
  },
});
