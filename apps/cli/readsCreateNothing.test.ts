// Bad input, a preview and the commands that only read create no embedded database: `start
// --port abc` and `catalogs import --preview` made VERDICT_HOME's databases before refusing the
// port or while merely previewing. A preview of a home with no event log diffs against nothing;
// a name not found there says the home holds nothing (a mistyped VERDICT_HOME).
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, example } from "./testing.js";

const dir = await mkdtemp(join(tmpdir(), "verdict-reads-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

const CATALOG = "catalog: desk\nproducts:\n  - key: triage\n    sets:\n      - key: smoke\n        scenarios:\n          - key: refund\n            prompt: Refund order 1042.\n";

describe("verdict commands that must not create VERDICT_HOME", () => {
  it("refuses a bad --port or PORT before opening anything", async () => {
    const home = join(dir, "port");
    expect(await cli(["start", "--port", "abc"], { VERDICT_HOME: home })).toMatchObject({ code: 2, stderr: 'verdict start: --port must be a port number 0-65535 (got "abc")' });
    expect(await cli(["start", "--exit"], { VERDICT_HOME: home, PORT: "70000" })).toMatchObject({ code: 2, stderr: 'verdict start: PORT must be a port number 0-65535 (got "70000")' });
    expect(existsSync(home)).toBe(false);
  });

  it("previews, exports and reports against a home with no event log as an empty one, creating nothing", async () => {
    const home = join(dir, "empty");
    const file = join(dir, "desk.yaml");
    await writeFile(file, CATALOG);
    const preview = await cli(["catalogs", "import", "--preview", file], { VERDICT_HOME: home });
    expect(preview).toMatchObject({ code: 0, stderr: "preview: nothing written" });
    expect(preview.stdout).toContain("(new catalog)");
    expect(await cli(["catalogs", "export", "desk"], { VERDICT_HOME: home })).toMatchObject({ code: 2, stderr: expect.stringContaining('no catalog "desk"') });
    expect(await cli(["report", "no-such-run"], { VERDICT_HOME: home })).toMatchObject({ code: 2 });
    expect(existsSync(home)).toBe(false);
  });

  it("says a not-found may be the home's doing when the home holds no event log (a mistyped VERDICT_HOME)", async () => {
    const home = join(dir, "typo");
    const note = `VERDICT_HOME ${home} holds no event log: nothing was imported or run there yet (is it the home you meant?)`;
    for (const argv of [["report", "no-such-run"], ["catalogs", "export", "desk"], ["evals", "clear-kpis", "ev1"]]) {
      const answer = await cli(argv, { VERDICT_HOME: home });
      expect(answer.code).toBe(2);
      // The refusal first, then the note.
      expect(answer.stderr).toMatch(/^(run no-such-run not found|no catalog "desk"|verdict evals clear-kpis: evaluation ev1 not found)/);
      expect(answer.stderr.endsWith(note)).toBe(true);
    }
    // Other refusals say nothing of the home, nor does a command that reads no home (`run`'s catalog file).
    expect((await cli(["evals", "clear-kpis", "bad id!"], { VERDICT_HOME: home })).stderr).not.toContain("event log");
    const catalog = join(dir, "typo-catalog.yaml");
    await writeFile(catalog, CATALOG);
    const run = await cli(["run", "--catalog", catalog, "--product", "nosuch", "--set", "smoke", "--models", "m", "--agent", `scripted:${example("agent.yaml")}`], { VERDICT_HOME: home });
    expect(run).toMatchObject({ code: 2, stderr: expect.stringContaining("nosuch") });
    expect(run.stderr).not.toContain("event log");
    expect(existsSync(home)).toBe(false);
  });

  it("refuses a catalog whose value would contain itself as bad input (exit 2), preview included, printing no diff", async () => {
    const home = join(dir, "cyclic");
    const file = join(dir, "cyclic.yaml");
    await writeFile(file, "catalog: c8\na: &a [*a]\n");
    const rule = `${file}, line 2: the catalog is not valid YAML: alias *a is inside the node its anchor &a names, so the value would contain itself`;
    for (const argv of [["catalogs", "import", file], ["catalogs", "import", "--preview", file]]) {
      expect(await cli(argv, { VERDICT_HOME: home })).toEqual({ code: 2, stdout: "", stderr: rule });
    }
    expect(existsSync(home)).toBe(false);
  });

  it("previews against the last import once there is a log", async () => {
    const home = join(dir, "imported");
    const file = join(dir, "desk.yaml");
    await writeFile(file, CATALOG);
    expect(await cli(["catalogs", "import", file], { VERDICT_HOME: home })).toMatchObject({ code: 0 });
    const preview = await cli(["catalogs", "import", "--preview", file], { VERDICT_HOME: home });
    expect(preview.stdout).toContain("(unchanged)");
    // A home with a log: a name not found there is only that.
    expect(await cli(["catalogs", "export", "nosuch"], { VERDICT_HOME: home })).toMatchObject({ code: 2, stderr: 'no catalog "nosuch" for tenant demo (import one with `verdict catalogs import FILE`)' });
  }, 60_000);
});
