// The read-model checksum on embedded PGlite: equal rows give equal digests whatever order they
// were written in, a changed row changes its table's digest, and no table is ever joined into one
// value as large as its rows' text (PostgreSQL refuses values over 1 GB).
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { openReadModels, type OpenedReadModels } from "../openReadModels.js";
import { migratedReadDump, resetReadModels } from "../testing/testReadModels.js";
import { insertResultRows, SEED_ROWS } from "../testing/checksumRows.js";
import { readModelChecksum, tableDigestQuery } from "./checksum.js";
import { READ_MODEL_TABLES } from "./tables.js";

let a: OpenedReadModels;
let b: OpenedReadModels;

beforeAll(async () => {
  const dump = await migratedReadDump();
  a = await openReadModels({ inMemory: true, loadDataDir: dump });
  b = await openReadModels({ inMemory: true, loadDataDir: dump });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});
beforeEach(async () => {
  await resetReadModels(a);
  await resetReadModels(b);
});

describe("readModelChecksum", () => {
  it("aggregates per-row digests, never the rows' text (a 773 MB log's results went past 1 GB)", () => {
    for (const table of READ_MODEL_TABLES) {
      const query = tableDigestQuery(table);
      expect(query).toContain("string_agg(md5(t::text)");
      expect(query).not.toMatch(/string_agg\(\s*t::text/);
    }
  });

  it("is equal for equal rows written in another order, and differs when one row differs", async () => {
    await insertResultRows(a.sql.sql(), SEED_ROWS);
    await insertResultRows(b.sql.sql(), [...SEED_ROWS].reverse());
    const first = await readModelChecksum(a.sql);
    expect(first.results.rows).toBe(3);
    expect(first.results.md5).toMatch(/^[0-9a-f]{32}$/);
    expect(await readModelChecksum(b.sql)).toEqual(first);

    await b.sql.sql().execute("UPDATE results SET answer = answer || '!' WHERE n = 1");
    const changed = await readModelChecksum(b.sql);
    expect(changed.results.rows).toBe(3);
    expect(changed.results.md5).not.toBe(first.results.md5);
    expect({ ...changed, results: first.results }).toEqual(first);
  });

  it("differs when two rows swap their contents (the key order is part of the digest)", async () => {
    await insertResultRows(a.sql.sql(), [{ n: 0, answer: "x" }, { n: 1, answer: "y" }]);
    await insertResultRows(b.sql.sql(), [{ n: 0, answer: "y" }, { n: 1, answer: "x" }]);
    expect((await readModelChecksum(b.sql)).results.md5).not.toBe((await readModelChecksum(a.sql)).results.md5);
  });

  it("is equal for equal rows whatever the session's TimeZone and DateStyle (servers set apart must agree)", async () => {
    await insertResultRows(a.sql.sql(), SEED_ROWS);
    await insertResultRows(b.sql.sql(), SEED_ROWS);
    // PGlite is one session: these hold for b's every statement, as a server's settings would.
    onTestFinished(() => b.sql.sql().script("RESET TimeZone; RESET DateStyle"));
    await b.sql.sql().execute("SET TimeZone = 'America/New_York'");
    await b.sql.sql().execute("SET DateStyle = 'SQL, DMY'");
    const rendered = async (side: OpenedReadModels) => (await side.sql.sql().execute<{ at: string }>("SELECT scored_at::text AS at FROM results WHERE n = 0"))[0].at;
    expect(await rendered(a)).toBe("2026-11-30 12:00:00.123+00");
    expect(await rendered(b)).toBe("30/11/2026 07:00:00.123 EST");

    expect(await readModelChecksum(b.sql)).toEqual(await readModelChecksum(a.sql));
    // SET LOCAL: the checksum leaves the session as it found it.
    expect(await rendered(b)).toBe("30/11/2026 07:00:00.123 EST");
  });

  it("gives empty tables the digest of nothing, with no rows", async () => {
    const empty = await readModelChecksum(a.sql);
    for (const table of READ_MODEL_TABLES) expect(empty[table.name]).toEqual({ rows: 0, md5: "d41d8cd98f00b204e9800998ecf8427e" });
  });
});
