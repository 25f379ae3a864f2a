// Bad input to `verdict run`, `report` and `catalogs`: a usage error (exit 2) that names
// the flag or path and what is wrong, found before any work is done, and shows no secret.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, exampleRun } from "./testing.js";


describe("verdict with bad input: --agent and --judge", () => {
  it("a bad --agent or --judge is a usage error that names the flag and echoes no credential", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-bad-"));
    const agent = (spec: string) => cli(exampleRun().map((arg) => (arg.startsWith("scripted:") && arg.endsWith("agent.yaml") ? spec : arg)));
    expect(await agent("http:ftp://bob:S3cret@host/replay")).toMatchObject({ code: 2, stderr: "--agent: agent url must be http(s): ftp://host" });
    const unparsable = await agent("http:https://bob:S3cret@ho st/replay");
    expect(unparsable.code).toBe(2);
    expect(unparsable.stderr).toMatch(/^--agent http:URL needs a URL/);
    expect(unparsable.stderr).not.toContain("S3cret");
    expect(await agent(`scripted:${dir}`)).toMatchObject({ code: 2, stderr: `--agent: ${dir} is a directory, not a script file` });
    await writeFile(join(dir, "judge.yaml"), "judge: x\nanswers: 5\n");
    const judge = await cli(exampleRun("--judge", `scripted:${join(dir, "judge.yaml")}`));
    expect(judge.code).toBe(2);
    expect(judge.stderr).toMatch(/^--judge: judge script: answers: /);
  });
});

describe("verdict start with bad flags", () => {
  it("--models naming no model is a usage error before anything starts", async () => {
    const home = await mkdtemp(join(tmpdir(), "verdict-start-"));
    expect(await cli(["start", "--exit", "--models", " , "], { VERDICT_HOME: home })).toEqual({
      code: 2,
      stdout: "",
      stderr: "verdict start: --models must name at least one model, comma separated (e.g. gpt-5-mini,claude-sonnet-4-5)",
    });
  });
});

describe("verdict start when nothing could be answered", () => {
  it("exits 1 when every pair is a run_error, as `verdict run` does, saying why", async () => {
    const home = await mkdtemp(join(tmpdir(), "verdict-start-"));
    // The example agent's script has no answers for these models: every replay is a run_error.
    const started = await cli(["start", "--exit", "--models", "foo,bar"], { VERDICT_HOME: home });
    expect(started.stdout).toContain("run failed: every pair (20/20) is a run_error, nothing was scored");
    expect(started.code).toBe(1);
  }, 120_000);
});

describe("verdict report with bad flags", () => {
  it("refuses --theme beside another format than html (it was ignored)", async () => {
    const home = await mkdtemp(join(tmpdir(), "verdict-report-"));
    expect(await cli(["report", "some-run", "--format", "md", "--theme", "dark"], { VERDICT_HOME: home })).toEqual({
      code: 2,
      stdout: "",
      stderr: "verdict report: --theme applies to --format html only (got --format md)",
    });
  });
});
