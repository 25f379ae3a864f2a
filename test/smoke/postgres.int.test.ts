import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testAdminUrl, type TestDatabase } from "../../infra/services/testDatabase.js";

// Proves the PostgreSQL service is real: a database of our own, a table, a row written and read
// back over a second connection, and the database gone after drop().
describe("PostgreSQL service (smoke)", () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database?.drop();
  });

  it("writes a row and reads it back over another connection", async () => {
    const writer = new pg.Client({ connectionString: database.url });
    await writer.connect();
    try {
      await writer.query("CREATE TABLE smoke (id serial PRIMARY KEY, body jsonb NOT NULL)");
      await writer.query("INSERT INTO smoke (body) VALUES ($1)", [{ verdict: "pass", score: 0.75 }]);
    } finally {
      await writer.end();
    }

    const reader = new pg.Client({ connectionString: database.url });
    await reader.connect();
    try {
      const { rows } = await reader.query("SELECT id, body, current_database() AS db FROM smoke");
      expect(rows).toEqual([{ id: 1, body: { verdict: "pass", score: 0.75 }, db: database.name }]);
    } finally {
      await reader.end();
    }
  });

  it("drop() removes the database even while a client is still connected", async () => {
    const extra = await createTestDatabase("verdict_smoke");
    const lingering = new pg.Client({ connectionString: extra.url });
    lingering.on("error", () => undefined); // the forced drop terminates this session
    await lingering.connect();

    await extra.drop();
    await extra.drop(); // idempotent

    await lingering.end().catch(() => undefined);

    const admin = new pg.Client({ connectionString: testAdminUrl() });
    await admin.connect();
    try {
      const { rows } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [extra.name]);
      expect(rows).toEqual([]);
    } finally {
      await admin.end();
    }
    expect(extra.name).toMatch(/^verdict_smoke_\d+_[0-9a-f]{10}$/);
  });
});
