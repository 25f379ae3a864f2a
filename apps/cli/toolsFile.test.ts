import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadToolsFile } from "./toolsFile.js";

describe("loadToolsFile reads YAML as catalogs are read", () => {
  const dir = mkdtempSync(join(tmpdir(), "verdict-tools-yaml-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const load = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return { path, loaded: loadToolsFile(path, "--tools") };
  };

  it("refuses an unknown tag with its line (`!!js/function` was accepted with a warning on stderr)", async () => {
    const { path, loaded } = load("tag.yaml", "tools:\n  - name: !!js/function 'function () {}'\n");
    await expect(loaded).rejects.toThrow(`--tools ${path}: line 2: not valid YAML: Unresolved tag: tag:yaml.org,2002:js/function`);
  });

  it("refuses deep nesting by its rule (it overflowed the stack), and a repeated key with its line", async () => {
    const deep = load("deep.yaml", `tools: ${"[".repeat(10_000)}${"]".repeat(10_000)}\n`);
    await expect(deep.loaded).rejects.toThrow(/not valid YAML: mappings and lists nest more than 64 levels deep/);
    const repeated = load("repeated.yaml", "tools:\n  - name: a\n    name: b\n");
    await expect(repeated.loaded).rejects.toThrow(`--tools ${repeated.path}: line 3: not valid YAML: repeated key in one mapping`);
  });

  it("reads a roster, its names as YAML 1.2 reads them (`no` stays text)", async () => {
    await expect(load("ok.yaml", "tools:\n  - name: no\n  - { name: lookup, description: Finds orders }\n").loaded).resolves.toEqual([
      { name: "no" },
      { name: "lookup", description: "Finds orders" },
    ]);
  });

  it("words a schema refusal plainly: an unknown key named as such, with the keys allowed and the one it likely meant", async () => {
    // It said `tools.0.name: Invalid input: expected string, received undefined`, about the
    // missing name, not the misspelt `nme` beside it.
    const cases: Array<[string, string]> = [
      ["tools:\n  - nme: x\n", "tools[0].nme: unknown key; a tool takes name, description, server (did you mean name?)"],
      ["tools:\n  - { name: a, descripton: b }\n", "tools[0].descripton: unknown key; a tool takes name, description, server (did you mean description?)"],
      ["tols: []\n", "tols: unknown key; a tools file takes tools (did you mean tools?)"],
      ["tools:\n  - description: x\n", "tools[0].name: missing; it must be text"],
      ["tools:\n  - name: 5\n", "tools[0].name: must be text"],
      ["tools: x\n", "tools: must be a list"],
      ["- a\n", "the file: must be a mapping"],
    ];
    for (const [i, [text, problem]] of cases.entries()) {
      const { path, loaded } = load(`schema-${i}.yaml`, text);
      await expect(loaded).rejects.toThrow(`--tools ${path}: ${problem} (expected tools: [{ name, description }])`);
    }
  });
});
