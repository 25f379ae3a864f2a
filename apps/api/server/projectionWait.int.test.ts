// Read-your-writes polling when PostgreSQL drops its sessions (a restart, pg_terminate_backend):
// the process carries on (an unhandled `error` from pg's pool would fail this file) and the next
// wait polls on a new connection.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createTestDatabase, terminateSessions, type TestDatabase } from "../../../infra/services/testDatabase.js";
import { pollProjection } from "./projectionWait.js";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase("verdict_projection_wait");
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    // The columns the wait reads (the projector's migration creates the whole table).
    await client.query("CREATE TABLE projector_checkpoints (name text PRIMARY KEY, commit_position bigint NOT NULL, prepare_position bigint NOT NULL)");
    await client.query("INSERT INTO projector_checkpoints VALUES ('p', 10, 10)");
  } finally {
    await client.end();
  }
});

afterAll(async () => {
  await db?.drop();
});

describe("pollProjection", () => {
  it("still waits after its pooled connection was terminated", async () => {
    const projection = pollProjection({ url: db.url, projector: "p", poolSize: 1, timeoutMs: 5_000 });
    try {
      await projection.wait({ commit: 5n, prepare: 5n });
      expect(await terminateSessions(db.name)).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 100)); // pg sees the socket close
      const started = Date.now();
      await projection.wait({ commit: 10n, prepare: 10n });
      expect(Date.now() - started).toBeLessThan(5_000); // reached, not timed out
    } finally {
      await projection.close();
    }
  });
});
