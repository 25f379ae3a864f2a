// `verdict catalogs import` with a key likely meant for one the format reads. A catalog whose
// `products:` (or a set whose `scenarios:`) is misspelt imported, exit 0, as an empty catalog or
// set, removing every scenario it held from every evaluation made from it: refused, exit 2,
// nothing written. Other near misses, at any level, are named on stderr and kept as before.
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { cli } from "./testing.js";

const dir = await mkdtemp(join(tmpdir(), "verdict-catalog-typos-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

const shop = (products = "products", scenarios = "scenarios", extra = "") =>
  `catalog: shop\n${products}:\n  - key: support\n    agent: SupportAgent\n    sets:\n      - key: smoke\n${extra}        ${scenarios}:\n` +
  "          - key: order_status\n            prompt: Where is my order 4821?\n            expect:\n              tools: [lookup_order]\n" +
  "          - key: refund\n            prompt: I want a refund for order 77.\n            expected_tools: [issue_refund]\n";

it("refuses a misspelt products: or scenarios:, exit 2 naming the file, the path and the key meant, and writes nothing", async () => {
  const env = { VERDICT_HOME: join(dir, "home-refused") };
  const good = join(dir, "shop.yaml");
  const prodcts = join(dir, "shop-prodcts.yaml");
  const scenarois = join(dir, "shop-scenarois.yaml");
  await writeFile(good, shop());
  await writeFile(prodcts, shop("prodcts"));
  await writeFile(scenarois, shop("products", "scenarois"));
  const refusals: Array<[string, string]> = [
    [prodcts, `${prodcts}, prodcts: not a key catalogs read; did you mean products? (a catalog without products would remove every scenario it held)`],
    [scenarois, `${scenarois}, products[0].sets[0].scenarois: not a key sets read; did you mean scenarios? (a set without scenarios would remove every scenario it held)`],
  ];
  // Before any store exists: refused before the home is made.
  for (const [file, stderr] of refusals) expect(await cli(["catalogs", "import", file], env)).toEqual({ code: 2, stdout: "", stderr });
  expect(existsSync(env.VERDICT_HOME)).toBe(false);
  // Over a stored catalog: refused with or without --preview, and the stored catalog is as it was.
  expect(await cli(["catalogs", "import", good], env)).toMatchObject({ code: 0 });
  const stored = await cli(["catalogs", "export", "shop"], env);
  for (const [file, stderr] of refusals) {
    for (const argv of [["catalogs", "import", file], ["catalogs", "import", "--preview", file]]) {
      expect(await cli(argv, env), argv.join(" ")).toEqual({ code: 2, stdout: "", stderr });
    }
  }
  expect(await cli(["catalogs", "export", "shop"], env)).toEqual(stored);
  expect(stored.stdout).toContain("order_status");
}, 120_000);

it("names near-miss keys of a set and the product's own field names on stderr, and imports as before", async () => {
  const env = { VERDICT_HOME: join(dir, "home-warned") };
  const file = join(dir, "shop-juge.yaml");
  await writeFile(file, shop("products", "scenarios", "        juge: { kind: llm, model: gpt-5-mini }\n"));
  const result = await cli(["catalogs", "import", file], env);
  expect(result.code).toBe(0);
  expect(result.stderr).toContain(`verdict catalogs import: ${file}, products[0].sets[0].juge: not a key sets read; did you mean judge? (kept as metadata)`);
  expect(result.stderr).toContain(
    `verdict catalogs import: ${file}, products[0].sets[0].scenarios[1].expected_tools: not a key scenarios read; did you mean expect.tools? (ignored)`,
  );
  expect(result.stderr).toContain("imported catalog shop for tenant demo");
  expect((await cli(["catalogs", "export", "shop"], env)).stdout).toContain("juge:");
}, 120_000);

it("says the key likely meant when a scenario has no prompt", async () => {
  const file = join(dir, "shop-promt.yaml");
  await writeFile(file, shop().replace("prompt: Where", "promt: Where"));
  expect(await cli(["catalogs", "import", "--preview", file], { VERDICT_HOME: join(dir, "home-promt") })).toEqual({
    code: 2,
    stdout: "",
    stderr: `${file}, products[0].sets[0].scenarios[0].prompt: scenario "order_status" has no prompt (it has promt:; did you mean prompt?)`,
  });
});
