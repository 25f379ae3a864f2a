// The read-model checksum across engines: a rebuild into PostgreSQL is compared with read models
// projected elsewhere, so equal rows must give the same digests on PostgreSQL and on PGlite.
import { afterAll, beforeAll, expect, it } from "vitest";
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
  postgres = await openReadModels({ url: readDb.url });
  embedded = await openReadModels({ inMemory: true, loadDataDir: await migratedReadDump() });
});
afterAll(async () => {
  await postgres?.close();
  await embedded?.close();
  await readDb?.drop();
});

it("gives the same digests on PostgreSQL and PGlite for the same rows, another for other rows", async () => {
  await insertResultRows(postgres.sql.sql(), SEED_ROWS);
  await insertResultRows(embedded.sql.sql(), SEED_ROWS);
  const onPostgres = await readModelChecksum(postgres.sql.sql());
  expect(onPostgres.results.rows).toBe(3);
  expect(await readModelChecksum(embedded.sql.sql())).toEqual(onPostgres);

  await postgres.sql.sql().execute("UPDATE results SET score = score + 1 WHERE n = 2");
  expect((await readModelChecksum(postgres.sql.sql())).results.md5).not.toBe(onPostgres.results.md5);
});
