// `npm start` imports the example catalog read as `verdict catalogs import` reads a file: a byte
// that is not UTF-8 was sent as U+FFFD and stored, and an empty file was refused without its name.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Catalog } from "@verdict/domain";
import { importCatalog } from "./exampleRun.js";
import type { GqlClient } from "./gqlClient.js";
import { bufferIo } from "./io.js";

function recordingClient(sent: Array<Record<string, unknown> | undefined>): Pick<GqlClient, "request"> {
  return {
    async request<T>(_query: string, variables?: Record<string, unknown>): Promise<T> {
      sent.push(variables);
      const catalog = Catalog.parse(String(variables?.yaml));
      return { importCatalog: { key: catalog.key, digest: catalog.digest, changed: true, scenarioCount: catalog.scenarioCount } } as T;
    },
  };
}

describe("npm start's example catalog import", () => {
  it("refuses what the CLI refuses, naming the file, and sends nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-example-"));
    try {
      const latin1 = join(dir, "latin1.yaml");
      await writeFile(latin1, Buffer.concat([Buffer.from("catalog: c\ndescription: caf"), Buffer.from([0xe9]), Buffer.from("\nproducts: []\n")]));
      const empty = join(dir, "empty.yaml");
      await writeFile(empty, "# nothing yet\n");
      const sent: Array<Record<string, unknown> | undefined> = [];
      await expect(importCatalog(recordingClient(sent), bufferIo(), latin1)).rejects.toThrow(`${latin1}, line 2: not UTF-8 text: the byte at offset 27 is not valid UTF-8 (save the file as UTF-8)`);
      await expect(importCatalog(recordingClient(sent), bufferIo(), empty)).rejects.toThrow(`${empty}: document is empty (nothing but blank lines or comments): there is no catalog in it`);
      expect(sent).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("sends the example catalog with the digest of its file", async () => {
    const sent: Array<Record<string, unknown> | undefined> = [];
    const io = bufferIo();
    await importCatalog(recordingClient(sent), io);
    const fromFile = Catalog.load(new URL("../../examples/support/catalog.yaml", import.meta.url).pathname);
    expect(Catalog.parse(String(sent[0]?.yaml)).digest).toBe(fromFile.digest);
    expect(io.stdout.join("")).toContain(`catalog ${fromFile.key}: imported`);
  });
});
