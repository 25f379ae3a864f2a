// The read-model checksum across engines: a rebuild into PostgreSQL is compared with read models
// projected elsewhere, so equal rows must give the same digests on PostgreSQL and on PGlite.
import { afterAll, beforeAll, expect, it } from "vitest";
import pg from "pg";
import { createTestDatabase, type TestDatabase } from "../../../infra/services/testDatabase.js";
import { openReadModels, type OpenedReadModels } from "../openReadModels.js";
import { migratedReadDump } from "../testing/testReadModels.js";
import { insertResultRows, SEED_ROWS } from "../testing/checksumRows.js";
import { readModelChecksum } from "./checksum.js";

let readDb: TestDatabase;
let postgres: OpenedReadModels;
let embedded: OpenedReadModels;

beforeAll(async () => {
  readDb = await createTestDatabase("verdict_checksum_read");
  // A server whose TimeZone is not PGlite's UTC: every session on this database starts in it.
  await withClient(readDb.url, (client) => client.query(`ALTER DATABASE "${readDb.name}" SET TimeZone = 'America/New_York'`));
  postgres = await openReadModels({ url: readDb.url });
  embedded = await openReadModels({ inMemory: true, loadDataDir: await migratedReadDump() });
});
afterAll(async () => {
  await postgres?.close();
  await embedded?.close();
  await readDb?.drop();
});

it("gives the same digests on PostgreSQL and PGlite for the same rows, their sessions' TimeZone apart, another for other rows", async () => {
  await insertResultRows(postgres.sql.sql(), SEED_ROWS);
  await insertResultRows(embedded.sql.sql(), SEED_ROWS);
  const rendered = async (side: OpenedReadModels) => (await side.sql.sql().execute<{ at: string }>("SELECT scored_at::text AS at FROM results WHERE n = 0"))[0].at;
  expect(await rendered(postgres)).toBe("2026-11-30 07:00:00.123-05");
  expect(await rendered(embedded)).toBe("2026-11-30 12:00:00.123+00");
  const onPostgres = await readModelChecksum(postgres.sql);
  expect(onPostgres.results.rows).toBe(3);
  expect(await readModelChecksum(embedded.sql)).toEqual(onPostgres);

  await postgres.sql.sql().execute("UPDATE results SET score = score + 1 WHERE n = 2");
  expect((await readModelChecksum(postgres.sql)).results.md5).not.toBe(onPostgres.results.md5);
});

async function withClient(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
