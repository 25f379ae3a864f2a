import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { numberedPlaceholders, pgliteSqlDatabase } from "./pgliteSql.js";

describe("numberedPlaceholders", () => {
  it("numbers ? outside quotes and spreads arrays as knex does", () => {
    expect(numberedPlaceholders(`SELECT '?' AS q, "a?" FROM t WHERE a = ? AND b IN (?) AND c = ?::jsonb`, [1, [2, 3], "{}"])).toEqual({
      text: `SELECT '?' AS q, "a?" FROM t WHERE a = $1 AND b IN ($2, $3) AND c = $4::jsonb`,
      values: [1, 2, 3, "{}"],
    });
  });

  it("refuses a parameter count that does not match", () => {
    expect(() => numberedPlaceholders("SELECT ?", [])).toThrow(/0 parameters/);
    expect(() => numberedPlaceholders("SELECT ?", [1, 2])).toThrow(/2 parameters for 1/);
  });
});

describe("pgliteSqlDatabase", () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create();
    await db.exec("CREATE TABLE t (id int PRIMARY KEY, big bigint, doc jsonb, at timestamptz)");
  });
  afterAll(() => db.close());

  it("answers as pg does: int8 as text, jsonb parsed, timestamptz as Date", async () => {
    const sql = pgliteSqlDatabase(db).sql();
    await sql.execute("INSERT INTO t VALUES (?, ?, ?::jsonb, ?)", [1, "9007199254740993", JSON.stringify({ a: [1] }), new Date("2026-01-02T03:04:05Z")]);
    const [row] = await sql.execute<{ big: string; doc: unknown; at: Date; n: string }>("SELECT big, doc, at, count(*) OVER () AS n FROM t WHERE id = ?", [1]);
    expect(row).toEqual({ big: "9007199254740993", doc: { a: [1] }, at: new Date("2026-01-02T03:04:05Z"), n: "1" });
  });

  it("commits a transaction whole or rolls it back whole, and keeps other statements out of it", async () => {
    const database = pgliteSqlDatabase(db);
    await expect(database.transaction(async (tx) => {
      await tx.execute("INSERT INTO t (id) VALUES (?)", [2]);
      throw new Error("boom");
    })).rejects.toThrow("boom");
    let outsideSaw: unknown = null;
    await database.transaction(async (tx) => {
      await tx.execute("INSERT INTO t (id) VALUES (?)", [3]);
      // Queued behind the transaction, so it sees the committed row, never a half-done one.
      const outside = database.sql().execute<{ ids: number[] }>("SELECT array_agg(id ORDER BY id) AS ids FROM t").then(([r]) => (outsideSaw = r.ids));
      await tx.execute("INSERT INTO t (id) VALUES (?)", [4]);
      void outside;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(outsideSaw).toEqual([1, 3, 4]);
  });
});
