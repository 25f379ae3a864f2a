// Text in the read models is ordered by code point (COLLATE "C"), whatever the read database's
// collation. Ordered by it, a read database created under an ICU locale (de-DE) listed agents and
// catalogs in another order than one in C (or embedded PGlite), and the same rows gave another
// rebuild checksum: the equality the checksum promises held only between databases alike.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../infra/services/testDatabase.js";
import { openReadModels, type OpenedReadModels } from "../openReadModels.js";
import { readModelChecksum } from "./checksum.js";
import type { Sql } from "./sql.js";

/** In code-point order, as JavaScript's sort puts them; de-DE puts "a b" and "ägent" first. */
const NAMES = ["Agent-a", "Zulu", "a b", "agent", "ägent"];

let databases: TestDatabase[] = [];
let german: OpenedReadModels;
let plain: OpenedReadModels;

beforeAll(async () => {
  databases = [await createTestDatabase("verdict_collation_de", { icuLocale: "de-DE" }), await createTestDatabase("verdict_collation_c")];
  [german, plain] = await Promise.all(databases.map((database) => openReadModels({ url: database.url })));
  for (const side of [german, plain]) await insertNamedRows(side.sql.sql(), [...NAMES].reverse());
});
afterAll(async () => {
  await german?.close();
  await plain?.close();
  for (const database of databases) await database.drop();
});

async function insertNamedRows(sql: Pick<Sql, "execute">, names: readonly string[]): Promise<void> {
  for (const [i, name] of names.entries()) {
    await sql.execute("INSERT INTO agents (tenant, name, latest_version, latest_digest, latest_at) VALUES ('acme', ?, 1, 'd', '2026-12-07T12:00:00Z')", [name]);
    await sql.execute(
      `INSERT INTO catalogs (tenant, key, name, digest, canonical_yaml, source, metadata, products, scenario_count, imported_at)
       VALUES ('acme', ?, ?, 'd', 'y', '{}', '{}', '[]', 0, '2026-12-07T12:00:00Z')`,
      [name, name],
    );
    await sql.execute("INSERT INTO model_summaries (run_id, label, tenant, position, summary) VALUES ('r1', ?, 'acme', ?, '{}')", [name, i]);
  }
}

it("the database really collates by de-DE (else this test proves nothing)", async () => {
  const rows = await german.sql.sql().execute<{ n: string }>("SELECT n FROM unnest(?::text[]) n ORDER BY n", [NAMES]);
  expect(rows.map((row) => row.n)).not.toEqual(NAMES);
});

it("lists agents, also page by page, and catalogs by code point on a de-DE database as on a C one", async () => {
  expect([...NAMES].sort()).toEqual(NAMES);
  for (const side of [german, plain]) {
    expect((await side.readModels.listAgents("acme")).edges.map((edge) => edge.node.name)).toEqual(NAMES);
    const first = await side.readModels.listAgents("acme", { first: 2 });
    const rest = await side.readModels.listAgents("acme", { first: 10, after: first.pageInfo.endCursor });
    expect([...first.edges, ...rest.edges].map((edge) => edge.node.name)).toEqual(NAMES);
    expect((await side.readModels.listCatalogs("acme")).map((catalog) => catalog.key)).toEqual(NAMES);
  }
});

it("gives the same checksum on a de-DE database as on a C one", async () => {
  const onGerman = await readModelChecksum(german.sql);
  expect(onGerman.agents.rows).toBe(NAMES.length);
  expect(onGerman).toEqual(await readModelChecksum(plain.sql));
});
