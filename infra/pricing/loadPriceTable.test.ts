import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PriceTableError } from "@verdict/domain";
import { loadPriceTable } from "./index.js";

describe("loadPriceTable", () => {
  it("reads a YAML or JSON file into a price table", async () => {
    const dir = await mkdtemp(join(tmpdir(), "prices-"));
    await writeFile(join(dir, "prices.yaml"), "models:\n  gpt-4o: { input: 2.5, output: 10 }\n");
    await writeFile(join(dir, "prices.json"), JSON.stringify({ models: { "gpt-4o": { input: 2.5, output: 10 } } }));
    for (const name of ["prices.yaml", "prices.json"]) {
      expect(loadPriceTable(join(dir, name)).rateFor({ label: "gpt-4o", model: "gpt-4o" })).toMatchObject({ input: 2.5, output: 10 });
    }
  });

  it("refuses a file that is missing, a directory, not UTF-8, too large or malformed, naming it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "prices-"));
    const latin1 = join(dir, "latin1.yaml");
    await writeFile(latin1, Buffer.from("models:\n  caf\xe9: { input: 1, output: 1 }\n", "latin1"));
    const large = join(dir, "large.yaml");
    await writeFile(large, `# ${"x".repeat(2 * 1024 * 1024)}\nmodels: {}\n`);
    const negative = join(dir, "negative.yaml");
    await writeFile(negative, "models:\n  gpt-4o: { input: 2.5, output: -10 }\n");
    const cases: Array<[string, string]> = [
      [join(dir, "nope.yaml"), `${join(dir, "nope.yaml")}: no such file`],
      [dir, `${dir}: a directory, not a price table file`],
      [latin1, `${latin1}: line 2: not UTF-8 text: the byte at offset 13 is not valid UTF-8 (save the file as UTF-8)`],
      [large, `${large}: over 2,097,152 bytes (reading stopped there); at most 2 MB are allowed`],
      [negative, `${negative}: models.gpt-4o.output: must not be negative (USD per million tokens), got -10`],
    ];
    for (const [path, message] of cases) {
      let refused: unknown = null;
      try {
        loadPriceTable(path);
      } catch (error) {
        refused = error;
      }
      expect(refused, path).toBeInstanceOf(PriceTableError);
      expect((refused as Error).message).toBe(message);
    }
  });
});
