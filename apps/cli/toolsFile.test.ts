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
});
