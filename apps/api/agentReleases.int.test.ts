// Agents' releases, pinning, standing and pooled pass rates on PostgreSQL read models and event
// store: the same cases as agentReleases.test.ts (testing/agentReleaseCases.ts).
import { createPostgresEventStore } from "@verdict/infra";
import { createTestDatabase } from "../../infra/services/testDatabase.js";
import { agentReleaseCases } from "./testing/agentReleaseCases.js";

agentReleaseCases({
  async open() {
    const db = await createTestDatabase("verdict_api_releases");
    return { readUrl: db.url, store: await createPostgresEventStore({ connectionString: db.url }), close: () => db.drop() };
  },
});
