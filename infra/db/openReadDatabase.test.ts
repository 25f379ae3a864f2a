import { describe, expect, it } from "vitest";
import pg from "pg";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cachedPgliteDump } from "./pgliteDump.js";
import { openReadDatabase } from "./openReadDatabase.js";
import { createReadOrm } from "./readOrm.js";

describe("openReadDatabase", () => {
  it("passes a PostgreSQL URL through untouched, starting nothing", async () => {
    const db = await openReadDatabase({ url: "postgres://postgres@127.0.0.1:5432/verdict" });
    expect(db).toMatchObject({ url: "postgres://postgres@127.0.0.1:5432/verdict", embedded: false, poolSize: undefined, pglite: null });
    await db.close();
  });

  it("serves an embedded PGlite over the wire protocol on 127.0.0.1 with a pool of one", async () => {
    const db = await openReadDatabase({ inMemory: true, loadDataDir: await cachedPgliteDump("empty read database") });
    try {
      expect(db).toMatchObject({ embedded: true, poolSize: 1 });
      expect(db.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
      const client = new pg.Client({ connectionString: db.url as string });
      await client.connect();
      expect((await client.query("SELECT 40 + 2 AS answer")).rows).toEqual([{ answer: 42 }]);
      await client.end();
      const orm = await createReadOrm(db);
      expect(orm.config.get("pool")).toMatchObject({ max: 1 });
      const em = orm.em.fork();
      await em.transactional(async (tx) => {
        await tx.execute("CREATE TABLE notes (body text)");
        await tx.execute("INSERT INTO notes VALUES (?)", ["why?"]);
      });
      expect(await em.execute("SELECT body FROM notes")).toEqual([{ body: "why?" }]);
      await orm.close();
    } finally {
      await db.close();
      await db.close(); // closing twice is harmless
    }
  });

  it("serves nothing when told not to: no URL, the PGlite instance only", async () => {
    const db = await openReadDatabase({ inMemory: true, loadDataDir: await cachedPgliteDump("empty read database"), serve: false });
    try {
      expect(db).toMatchObject({ url: null, embedded: true, poolSize: 1 });
      expect((await db.pglite?.query<{ answer: number }>("SELECT 40 + 2 AS answer"))?.rows).toEqual([{ answer: 42 }]);
      await expect(createReadOrm(db)).rejects.toThrow(/no URL/);
    } finally {
      await db.close();
    }
  });

  it("keeps embedded data under <baseDir>/<name>", async () => {
    const base = await mkdtemp(join(tmpdir(), "verdict-read-"));
    try {
      const db = await openReadDatabase({ baseDir: base, name: "read", loadDataDir: await cachedPgliteDump("empty read database") });
      await db.close();
      expect(await readdir(join(base, "read"))).toContain("PG_VERSION");
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
