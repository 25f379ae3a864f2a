// Agents, standings and pooled pass rates on PostgreSQL: events in the PostgreSQL event store (a
// new database per case), read models in their own database (testing/standingCases.ts).
import { createPostgresEventStore } from "@verdict/infra";
import type { EventStore } from "@verdict/domain";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { openTestReadModels } from "./testing/testReadModels.js";
import { standingCases } from "./testing/standingCases.js";

standingCases(async () => {
  const readDb = await createTestDatabase("verdict_standings_read");
  const read = await openTestReadModels({ url: readDb.url });
  const opened: { db: TestDatabase; store: EventStore }[] = [];
  return {
    read,
    async store() {
      const db = await createTestDatabase("verdict_standings_events");
      const store = await createPostgresEventStore({ connectionString: db.url });
      opened.push({ db, store });
      return store;
    },
    async close() {
      await read.close();
      for (const { db, store } of opened) {
        await store.close();
        await db.drop();
      }
      await readDb.drop();
    },
  };
});
