import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPgliteDataDir } from "./pgliteDataDir.js";

describe("openPgliteDataDir", () => {
  it("creates a new cluster, then opens it as an existing one; data written survives a reopen", async () => {
    const base = await mkdtemp(join(tmpdir(), "verdict-datadir-"));
    const dataDir = join(base, "nested", "events");
    try {
      const first = await openPgliteDataDir(dataDir);
      expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true);
      await first.exec("CREATE TABLE notes (body text); INSERT INTO notes VALUES ('kept')");
      expect((await first.query<{ shared_buffers: string }>("SHOW shared_buffers")).rows[0].shared_buffers).toBe("16MB");
      await first.close();
      const again = await openPgliteDataDir(dataDir);
      expect((await again.query<{ body: string }>("SELECT body FROM notes")).rows).toEqual([{ body: "kept" }]);
      await again.close();
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  }, 120_000);
});
