// Result.metadata and Run.metadata on PostgreSQL read models (and event store): the same cases as
// resultMetadata.test.ts on PGlite (testing/resultMetadataCases.ts).
import { createPostgresEventStore } from "@verdict/infra";
import { createTestDatabase } from "../../infra/services/testDatabase.js";
import { resultMetadataCases } from "./testing/resultMetadataCases.js";

resultMetadataCases({
  async open() {
    const db = await createTestDatabase("verdict_metadata");
    return { readUrl: db.url, store: await createPostgresEventStore({ connectionString: db.url }), close: () => db.drop() };
  },
});
