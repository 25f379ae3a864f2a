// `verdict run` and `catalogs import` refuse a scenario key or model label a reader cannot tell
// from another (domain support/identifierText), before anything runs or is written.
import { describe, expect, it } from "vitest";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "./cli.js";
import { bufferIo } from "./io.js";

const example = (name: string) => fileURLToPath(new URL(`../../examples/support/${name}`, import.meta.url));
const RULE = "control, bidi and invisible characters are refused in keys, labels and tool names";

async function run(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stderr: string; stdout: string }> {
  const io = bufferIo();
  return { code: await runCli(argv, io, env), stderr: io.stderr.join(""), stdout: io.stdout.join("") };
}

describe("identifiers a reader cannot tell apart", () => {
  it("verdict run refuses a catalog scenario key with a zero-width space, naming file, path and character, and runs nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-ident-"));
    try {
      const file = join(dir, "catalog.yaml");
      await writeFile(file, (await readFile(example("catalog.yaml"), "utf8")).replace("key: order_status", 'key: "order\\u200bstatus"'));
      const out = join(dir, "report.md");
      const argv = ["run", "--catalog", file, "--product", "support", "--set", "smoke", "--models", "gpt-5-mini", "--agent", `scripted:${example("agent.yaml")}`, "--quiet", "--out", out];
      expect(await run(argv)).toEqual({ code: 2, stdout: "", stderr: `${file}, products[0].sets[0].scenarios[0].key: must not contain U+200B ZERO WIDTH SPACE (at character 6): ${RULE}` });
      expect(await readdir(dir)).toEqual(["catalog.yaml"]);
      const home = join(dir, "home");
      expect(await run(["catalogs", "import", file], { VERDICT_HOME: home })).toMatchObject({ code: 2, stderr: expect.stringContaining("U+200B ZERO WIDTH SPACE") });
      expect(await readdir(dir)).toEqual(["catalog.yaml"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("verdict run refuses two --models that read alike and a label with a right-to-left override", async () => {
    const base = ["run", "--catalog", example("catalog.yaml"), "--product", "support", "--set", "smoke", "--agent", `scripted:${example("agent.yaml")}`, "--quiet"];
    expect(await run([...base, "--models", "gpt-5-mini,g\u0440t-5-mini"])).toMatchObject({
      code: 2,
      stdout: "",
      stderr: expect.stringContaining('models "gpt-5-mini" and "g\u0440t-5-mini" read alike (character 2 is U+0070 in one and U+0440 in the other): rename one'),
    });
    expect(await run([...base, "--models", "\u30e2\u30c7\u30eb\u202e"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('model name "\u30e2\u30c7\u30eb\\u{202E}" must not contain U+202E RIGHT-TO-LEFT OVERRIDE (at character 4)'),
    });
  }, 60_000);

  it("verdict run refuses a --tools file whose tool name holds a zero-width space, as startRun's tools", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-ident-"));
    try {
      const tools = join(dir, "tools.yaml");
      await writeFile(tools, 'tools:\n  - name: "lookup\\u200border"\n');
      const argv = ["run", "--catalog", example("catalog.yaml"), "--product", "support", "--set", "smoke", "--models", "gpt-5-mini", "--agent", `scripted:${example("agent.yaml")}`, "--quiet", "--tools", tools];
      expect(await run(argv)).toEqual({ code: 2, stdout: "", stderr: `verdict run: --tools ${tools}: tools[0].name: must not contain U+200B ZERO WIDTH SPACE (at character 7): ${RULE} (expected tools: [{ name, description }])` });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
