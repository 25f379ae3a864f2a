// Bad input to `verdict run`, `report` and `catalogs`: a usage error (exit 2) that names
// the flag or path and what is wrong, found before any work is done, and shows no secret.
import { lstat, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkOutputPath, writeOutput, writeOutputFor } from "./outputFile.js";
import { CliError } from "./errors.js";
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

describe("verdict with bad input: --out a directory it cannot write in", () => {
  // Tests run as root, which passes W_OK almost everywhere: /proc is a directory no one can create
  // a file in, and an injected check stands for a directory this user lacks permission on.
  it("refuses before running, naming the flag, the path and the directory", async () => {
    expect(await cli(exampleRun("--out", "/proc/report.md"))).toEqual({
      code: 2, stdout: "", stderr: "verdict run: --out /proc/report.md: cannot write a file in /proc (ENOENT: no such file or directory)",
    });
    const dir = await mkdtemp(join(tmpdir(), "verdict-bad-"));
    try {
      const env = { VERDICT_HOME: join(dir, "home") };
      expect(await cli(["report", "run-1", "--out", "/proc/report.md"], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^verdict report: --out \/proc\/report.md: cannot write a file in \/proc /) });
      expect(await cli(["catalogs", "export", "support", "/proc/support.yaml"], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^verdict catalogs export: FILE \/proc\/support.yaml: cannot write a file in \/proc /) });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("asks the check about the directory of a new file and about a device itself", () => {
    const denied = (asked: string[]) => (path: string, directory: boolean) => {
      asked.push(`${path}${directory ? "/" : ""}`);
      throw Object.assign(new Error(`EACCES: permission denied, access '${path}'`), { code: "EACCES" });
    };
    const asked: string[] = [];
    const refusal = (() => {
      try {
        checkOutputPath("run", "--out", "/tmp/report.md", denied(asked));
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(CliError);
    expect(refusal).toMatchObject({ exitCode: 2, message: "verdict run: --out /tmp/report.md: cannot write a file in /tmp (EACCES: permission denied)" });
    expect(() => checkOutputPath("run", "--out", "/dev/full", denied(asked))).toThrow("verdict run: --out /dev/full: cannot write to it (EACCES: permission denied)");
    expect(asked).toEqual(["/tmp/", "/dev/full"]);
  });

  it("a write that fails after the run names the flag and the path, not the file beside it, and exits 1", async () => {
    const result = await cli(exampleRun("--out", "/dev/full"));
    expect(result).toMatchObject({ code: 1, stderr: "verdict run: --out /dev/full: could not write it (ENOSPC: no space left on device)" });
    const dir = await mkdtemp(join(tmpdir(), "verdict-out-"));
    const path = join(dir, "report.md");
    checkOutputPath("run", "--out", path);
    await rm(dir, { recursive: true, force: true }); // gone while the run ran
    await expect(writeOutputFor("run", "--out", path, "# report\n")).rejects.toMatchObject({
      exitCode: 1, message: `verdict run: --out ${path}: could not write it (ENOENT: no such file or directory)`,
    });
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
