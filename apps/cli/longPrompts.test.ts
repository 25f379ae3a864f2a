// `verdict run` refuses a catalog scenario whose prompt is longer than the platform stores, before
// anything runs: its report would be refused by `verdict evals import`, as the catalog is by
// `catalogs import`. A prompt at the limit runs.
import { describe, expect, it } from "vitest";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SCENARIO_PROMPT_MAX } from "@verdict/domain";
import { runCli } from "./cli.js";
import { bufferIo } from "./io.js";

const example = (name: string) => fileURLToPath(new URL(`../../examples/support/${name}`, import.meta.url));

async function run(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stderr: string; stdout: string }> {
  const io = bufferIo();
  return { code: await runCli(argv, io, env), stderr: io.stderr.join(""), stdout: io.stdout.join("") };
}

describe("a prompt longer than the platform stores", () => {
  it("verdict run refuses it naming the file, the scenario and prompt, and writes nothing; catalogs import refuses it too; one at the limit runs", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-long-"));
    try {
      const original = await readFile(example("catalog.yaml"), "utf8");
      const withPrompt = (prompt: string) => original.replace('prompt: "Where is my order #4821? It was supposed to arrive yesterday."', `prompt: "${prompt}"`);
      const file = join(dir, "catalog.yaml");
      await writeFile(file, withPrompt("x".repeat(SCENARIO_PROMPT_MAX + 1)));
      const out = join(dir, "report.json");
      const argv = ["run", "--catalog", file, "--product", "support", "--set", "smoke", "--models", "gpt-5-mini", "--agent", `scripted:${example("agent.yaml")}`, "--quiet", "--format", "json", "--out", out];
      expect(await run(argv)).toEqual({
        code: 2,
        stdout: "",
        stderr: `${file}, set support/smoke, scenario "order_status": prompt has 65536 characters, over the 65535 the platform stores (its report could not be imported, nor the catalog): shorten it`,
      });
      expect(await readdir(dir)).toEqual(["catalog.yaml"]);
      const home = join(dir, "home");
      expect(await run(["catalogs", "import", file], { VERDICT_HOME: home })).toMatchObject({ code: 2, stderr: expect.stringContaining("prompt") });
      await rm(home, { recursive: true, force: true });
      await writeFile(file, withPrompt("x".repeat(SCENARIO_PROMPT_MAX)));
      expect((await run(argv)).stderr).not.toContain("the platform stores");
      expect(JSON.parse(await readFile(out, "utf8")).results[0].prompt).toHaveLength(SCENARIO_PROMPT_MAX);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
