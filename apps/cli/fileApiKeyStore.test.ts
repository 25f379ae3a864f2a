import { describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileApiKeyStore } from "./fileApiKeyStore.js";

describe("file API key store (embedded default)", () => {
  it("keeps only hashes, and a second store on the same file sees keys created after it started", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-keys-"));
    try {
      const path = join(dir, "nested", "api-keys.json");
      const server = createFileApiKeyStore(path);
      expect(await server.verify("vk_000000000000_nothingherenothingherenothinghere00")).toBeNull();
      const cli = createFileApiKeyStore(path);
      const { key, record } = await cli.create({ tenant: "demo", role: "read", name: "ci" });
      expect(await readFile(path, "utf8")).not.toContain(key.slice(16));
      expect(await server.verify(key)).toEqual({ keyId: record.keyId, tenant: "demo", role: "read" });
      expect(await server.verify(`${key}x`)).toBeNull();
      expect(await cli.revoke(record.keyId)).toBe(true);
      expect(await cli.revoke(record.keyId)).toBe(false);
      expect(await server.verify(key)).toBeNull();
      await expect(cli.create({ tenant: "a b", role: "read" })).rejects.toMatchObject({ field: "tenant" });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
