// Bad input to `verdict run`, `report` and `catalogs`: a usage error (exit 2) that names
// the flag or path and what is wrong, found before any work is done, and shows no secret.
import { lstat, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeOutput } from "./outputFile.js";
import { cli, exampleRun } from "./testing.js";


describe("verdict with bad input: --out", () => {
  it("checks --out before running: a missing directory names the flag and the directory", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-bad-"));
    const out = join(dir, "missing", "report.md");
    const result = await cli(exampleRun("--out", out));
    expect(result).toEqual({ code: 2, stdout: "", stderr: `verdict run: --out ${out}: no directory ${join(dir, "missing")} to write it in` });
    expect(await cli(exampleRun("--out", dir))).toMatchObject({ code: 2, stderr: `verdict run: --out ${dir} is a directory; name a file` });
    const report = await cli(["report", "run-1", "--out", out], { VERDICT_HOME: join(dir, "home") });
    expect(report).toMatchObject({ code: 2, stderr: `verdict report: --out ${out}: no directory ${join(dir, "missing")} to write it in` });
    await rm(dir, { recursive: true, force: true });
  });
});

describe("writeOutput", () => {
  it("a write that fails halfway leaves the previous file whole and nothing beside it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-out-"));
    const path = join(dir, "report.md");
    await writeOutput(path, "# last night's report\n");
    const halfway = async (target: string, text: string) => {
      await writeFile(target, text.slice(0, text.length / 2));
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    };
    await expect(writeOutput(path, "# tonight's report, much longer than the last one\n", halfway)).rejects.toThrow("ENOSPC");
    expect(await readFile(path, "utf8")).toBe("# last night's report\n");
    expect(await readdir(dir)).toEqual(["report.md"]);
    await rm(dir, { recursive: true, force: true });
  });

  it("writes through a symlink to its file, keeping the link, and writes straight to a device", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-out-"));
    try {
      await writeFile(join(dir, "2026-11-30.html"), "old");
      await symlink("2026-11-30.html", join(dir, "latest.html"));
      await writeOutput(join(dir, "latest.html"), "new");
      expect((await lstat(join(dir, "latest.html"))).isSymbolicLink()).toBe(true);
      expect(await readFile(join(dir, "2026-11-30.html"), "utf8")).toBe("new");
      expect((await readdir(dir)).sort()).toEqual(["2026-11-30.html", "latest.html"]);
      // A rename over /dev/null would replace the device for everyone: it is written to instead.
      await writeOutput("/dev/null", "discarded");
      expect((await lstat("/dev/null")).isCharacterDevice()).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
