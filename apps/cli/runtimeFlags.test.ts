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
    expect(await agent("http:ftp://bob:S3cret@host/replay")).toMatchObject({ code: 2, stderr: "verdict run: --agent: agent url must be http(s): ftp://host" });
    const unparsable = await agent("http:https://bob:S3cret@ho st/replay");
    expect(unparsable.code).toBe(2);
    expect(unparsable.stderr).toMatch(/^verdict run: --agent: http: needs the URL of the host's replay endpoint, e.g. http:https:\/\/host\/replay \(value not shown/);
    expect(unparsable.stderr).not.toContain("S3cret");
    expect(await agent(`scripted:${dir}`)).toMatchObject({ code: 2, stderr: `verdict run: --agent: ${dir} is a directory, not a script file` });
    await writeFile(join(dir, "judge.yaml"), "judge: x\nanswers: 5\n");
    const judge = await cli(exampleRun("--judge", `scripted:${join(dir, "judge.yaml")}`));
    expect(judge.code).toBe(2);
    expect(judge.stderr.startsWith(`verdict run: --judge: ${join(dir, "judge.yaml")}: judge script: answers: `)).toBe(true);
    // A malformed script names its file (it said only `--agent: agent script: invalid YAML: …`).
    const repeated = join(dir, "agent.yaml");
    await writeFile(repeated, "a: 1\na: 2\n");
    expect(await agent(`scripted:${repeated}`)).toMatchObject({ code: 2, stderr: `verdict run: --agent: ${repeated}: agent script: invalid YAML: line 2: repeated key in one mapping` });
  });
});

describe("verdict run --agent with a URL slip", () => {
  it("says the http: prefix is missing before a URL, or the scheme after it, showing the corrected shape with the origin alone", async () => {
    const agent = (spec: string) => cli(exampleRun().map((arg) => (arg.startsWith("scripted:") && arg.endsWith("agent.yaml") ? spec : arg)));
    const notShown = "(value not shown: it may carry a password or a token)";
    expect(await agent("http://127.0.0.1:8080/replay")).toMatchObject({
      code: 2,
      stderr: `verdict run: --agent: the http: prefix is missing before the URL: write http:http://127.0.0.1:8080/… ${notShown}`,
    });
    expect(await agent("https://bob:S3cret@agent.example.com/hooks/T0KEN/replay")).toMatchObject({
      code: 2,
      stderr: `verdict run: --agent: the http: prefix is missing before the URL: write http:https://agent.example.com/… ${notShown}`,
    });
    expect(await agent("http:localhost:8080")).toMatchObject({
      code: 2,
      stderr: 'verdict run: --agent: the URL after http: has no scheme (http:// or https://), e.g. http:http://localhost:8080 (got "http:localhost:8080")',
    });
    expect(await agent("http:bob:S3cret@agent.example.com/replay")).toMatchObject({
      code: 2,
      stderr: `verdict run: --agent: the URL after http: has no scheme (http:// or https://), e.g. http:http://agent.example.com/… ${notShown}`,
    });
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

describe("verdict run --judge providers with no provider configured", () => {
  it("is a usage error naming --judge, not the worker's VERDICT_JUDGE", async () => {
    const empty = { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", OPENROUTER_API_KEY: "", OLLAMA_BASE_URL: "" };
    for (const spec of ["providers", "providers:gpt-5"]) {
      const judged = await cli(exampleRun("--judge", spec), empty);
      expect(judged.code).toBe(2);
      expect(judged.stderr).toMatch(/^verdict run: --judge: "providers" judges need a model provider: /);
    }
  });
});
