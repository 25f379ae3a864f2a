// Judge-defined KPIs on PostgreSQL read models (migration 015) and event store: the same cases as
// judgeDefinedKpis.test.ts on the embedded default (testing/judgeDefinedKpiCases.ts).
import { createPostgresEventStore } from "@verdict/infra";
import { createTestDatabase } from "../../infra/services/testDatabase.js";
import { judgeDefinedKpiCases } from "./testing/judgeDefinedKpiCases.js";

judgeDefinedKpiCases({
  keyOrderKept: false,
  async open() {
    const db = await createTestDatabase("verdict_kpis");
    const store = await createPostgresEventStore({ connectionString: db.url });
    return { readUrl: db.url, store, close: () => db.drop() };
  },
});
