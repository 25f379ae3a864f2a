// Bad input to `verdict run`, `report` and `catalogs`: a usage error (exit 2) that names
// the flag or path and what is wrong, found before any work is done, and shows no secret.
import { existsSync } from "node:fs";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, example, exampleRun } from "./testing.js";


describe("verdict with bad input: a catalog path", () => {
  it("refuses a catalog path that is a directory or over the size limit before reading it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-bad-"));
    try {
      const huge = join(dir, "huge.yaml");
      const handle = await open(huge, "w");
      await handle.truncate(600 * 1024 * 1024); // sparse: nothing is written
      await handle.close();
      const env = { VERDICT_HOME: join(dir, "home") };
      expect(await cli(["catalogs", "import", dir], env)).toMatchObject({ code: 2, stderr: `${dir} is a directory, not a catalog file` });
      expect(await cli(["catalogs", "import", huge], env)).toMatchObject({ code: 2, stderr: `${huge}: document is 629,145,600 bytes; at most 2,097,152 (2 MB) are allowed` });
      const local = await cli(exampleRun().map((arg) => (arg === example("catalog.yaml") ? dir : arg)));
      expect(local).toMatchObject({ code: 2, stderr: `${dir} is a directory, not a catalog file` });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses an empty or comments-only catalog file, naming it, before opening the store (it removed every product of the stored catalog)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-bad-"));
    try {
      const env = { VERDICT_HOME: join(dir, "home") };
      const rule = "document is empty (nothing but blank lines or comments): there is no catalog in it";
      for (const text of ["", "# products come later\n"]) {
        const path = join(dir, "small.yaml");
        await writeFile(path, text);
        for (const argv of [["catalogs", "import", path], ["catalogs", "import", "--preview", path]]) {
          expect(await cli(argv, env), argv.join(" ")).toEqual({ code: 2, stdout: "", stderr: `${path}: ${rule}` });
        }
        const local = await cli(exampleRun().map((arg) => (arg === example("catalog.yaml") ? path : arg)));
        expect(local).toMatchObject({ code: 2, stderr: `${path}: ${rule}` });
      }
      expect(existsSync(env.VERDICT_HOME)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("stops reading a device or a pipe past the size limit (/dev/zero was read until memory ran out)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-bad-"));
    try {
      const env = { VERDICT_HOME: join(dir, "home") };
      const limit = "document is over 2,097,152 bytes (reading stopped there); at most 2,097,152 (2 MB) are allowed";
      for (const argv of [["catalogs", "import", "/dev/zero"], ["catalogs", "import", "--preview", "/dev/zero"], exampleRun().map((arg) => (arg === example("catalog.yaml") ? "/dev/zero" : arg))]) {
        expect(await cli(argv, env), argv.join(" ")).toMatchObject({ code: 2, stderr: `/dev/zero: ${limit}` });
      }
      expect(existsSync(env.VERDICT_HOME)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("says a catalog key taken from the file name cannot be stored, and that `catalog:` fixes it, before opening the store", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-bad-"));
    try {
      const env = { VERDICT_HOME: join(dir, "home") };
      const body = "products:\n  - key: p\n    sets:\n      - key: s\n        scenarios:\n          - {key: a, prompt: hi}\n";
      const named = join(dir, "support.desk.yml");
      await writeFile(named, body);
      const rule = '1-100 ASCII letters (a-z, A-Z), digits, "_" or "-", starting with a letter or digit, without "--"';
      for (const argv of [["catalogs", "import", named], ["catalogs", "import", "--preview", named]]) {
        expect(await cli(argv, env)).toMatchObject({
          code: 2,
          stderr: `${named}: the catalog's key "support.desk" comes from the file name support.desk.yml, as the document sets no \`catalog:\`, and a stored catalog's key is ${rule}: set \`catalog:\` in the document to such a key`,
        });
      }
      // A key the document sets is refused naming its field, `catalog` (it named `key`), and the
      // file, as the reader's refusals do (it named no file).
      const keyed = join(dir, "keyed.yml");
      for (const key of ["acme.support", "c/d", "__proto__"]) {
        await writeFile(keyed, `catalog: ${JSON.stringify(key)}\n${body}`);
        expect(await cli(["catalogs", "import", keyed], env)).toMatchObject({ code: 2, stderr: `${keyed}, catalog: ${JSON.stringify(key)} cannot key a stored catalog: a key is ${rule}` });
      }
      expect(existsSync(env.VERDICT_HOME)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("never shows a key's control characters to the terminal as they are (ESC [2J cleared the screen): it refuses the key by code point", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-bad-"));
    try {
      const path = join(dir, "escapes.yml");
      await writeFile(path, `catalog: c\nproducts:\n  - key: p\n    agent: A\n    sets:\n      - key: s\n        scenarios:\n          - {key: "\\e[31mred\\e]0;pwned\\a", prompt: hi}\n          - {key: "rtl\\u202Eexe.txt", prompt: hi}\n`);
      // Such a key is now refused where it comes in (README "Keys, labels and tool names"), named
      // by code point: the error holds none of its characters either.
      const result = await cli(["catalogs", "import", "--preview", path], { VERDICT_HOME: join(dir, "home") });
      expect(result).toMatchObject({ code: 2, stdout: "" });
      for (const raw of ["\u001b", "\u0007", "\u202e"]) expect(result.stderr).not.toContain(raw);
      expect(result.stderr).toContain(`${path}, products[0].sets[0].scenarios[0].key: must not contain U+001B ESCAPE (at character 1)`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a typo inside a scenario's expect, naming it and the key meant (it was dropped, and the scenario passed any answer)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-bad-"));
    try {
      const env = { VERDICT_HOME: join(dir, "home") };
      const path = join(dir, "typo.yml");
      await writeFile(path, "catalog: c\nproducts:\n  - key: p\n    agent: A\n    sets:\n      - key: s\n        scenarios:\n          - key: greet\n            prompt: Say hello\n            expect: { contain: [hello] }\n");
      const stderr = `${path}, products[0].sets[0].scenarios[0].expect.contain: unknown key; a scenario's expectations take tools, contains and not_contains (did you mean contains?)`;
      for (const argv of [["catalogs", "import", "--preview", path], ["catalogs", "import", path]]) {
        expect(await cli(argv, env), argv.join(" ")).toEqual({ code: 2, stdout: "", stderr });
      }
      const local = await cli([...exampleRun("--gate", "1")].map((arg) => (arg === example("catalog.yaml") ? path : arg === "support" ? "p" : arg === "smoke" ? "s" : arg)));
      expect(local).toMatchObject({ code: 2, stdout: "", stderr });
      expect(existsSync(env.VERDICT_HOME)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("--preview refuses what the import refuses, and no diff is printed for a refused import (it listed 'added' first)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-bad-"));
    try {
      const env = { VERDICT_HOME: join(dir, "home") };
      const catalogOf = (key: string, prompt = "hi") => `catalog: c\nproducts:\n  - key: p\n    agent: A\n    sets:\n      - key: s\n        scenarios:\n          - {key: ${JSON.stringify(key)}, prompt: ${JSON.stringify(prompt)}}\n`;
      const nul = join(dir, "nul.yml");
      await writeFile(nul, catalogOf("a\u0000b"));
      const long = join(dir, "long.yml");
      await writeFile(long, catalogOf("k".repeat(10_000)));
      const nulPrompt = join(dir, "nul-prompt.yml");
      await writeFile(nulPrompt, catalogOf("a", "a\u0000b"));
      // A NUL in a key is refused earlier, as a control character (README "Keys, labels and tool names").
      expect(await cli(["catalogs", "import", nul], env)).toMatchObject({ code: 2, stdout: "", stderr: expect.stringContaining(`${nul}, products[0].sets[0].scenarios[0].key: must not contain U+0000 NULL (at character 2)`) });
      const rules = new Map([
        [long, "key: Too big: expected string to have <=200 characters"],
        [nulPrompt, "prompt: must not contain a NUL"],
      ]);
      for (const [path, rule] of rules) {
        for (const argv of [["catalogs", "import", "--preview", path], ["catalogs", "import", path]]) {
          const result = await cli(argv, env);
          expect(result, argv.join(" ")).toMatchObject({ code: 2, stdout: "" });
          // The rule, not a validation library's dump, and never the whole 10 KB key; named as the
          // file's field, not as the event's or the command's (`event CatalogImported: data.…`).
          expect(result.stderr, argv.join(" ")).toContain(`${path}: the catalog cannot be stored: products[0].sets[0].scenarios[0].${rule}`);
          expect(result.stderr.length).toBeLessThan(1000);
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
