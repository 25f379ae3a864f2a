// `verdict help` is what a user reads instead of the code: every flag a command takes is shown
// under that command, and no command shows a flag it would refuse. `--help` after any command
// prints that command's usage and exits 0 (it was an unknown option, exit 2).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FLAG_SPECS } from "./flagSpecs.js";
import { cli } from "./testing.js";
import { COMMAND_USAGE, USAGE } from "./usage.js";

const COMMANDS = Object.keys(FLAG_SPECS) as Array<keyof typeof FLAG_SPECS>;

describe("verdict help", () => {
  it("shows every command's flags under it, and only those", () => {
    for (const command of COMMANDS) {
      const spec = FLAG_SPECS[command];
      const text = COMMAND_USAGE[command];
      expect(text.trimStart().startsWith(`${command} `) || text.trim() === command, command).toBe(true);
      expect(USAGE).toContain(text);
      const taken = [...("values" in spec ? spec.values : []), ...("booleans" in spec ? spec.booleans : []), ...("repeatable" in spec ? spec.repeatable : [])].sort();
      const shown = [...new Set([...text.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]))].sort();
      expect(shown, command).toEqual(taken);
    }
  });

  it("prints a command's own usage for --help, -h or `help CMD`, and exits 0 without running it", async () => {
    for (const command of COMMANDS) {
      const words = command.split(" ");
      for (const argv of [[...words, "--help"], [...words, "-h"], ["help", ...words]]) {
        const { code, stdout, stderr } = await cli(argv, { VERDICT_HOME: "/nonexistent/verdict-help" });
        expect({ code, stderr }, argv.join(" ")).toEqual({ code: 0, stderr: "" });
        expect(stdout, argv.join(" ")).toContain(COMMAND_USAGE[command].trimStart().split("\n")[0].replace(/^/, "verdict "));
      }
    }
    // After other flags and arguments too; a group name lists its commands.
    expect((await cli(["run", "--catalog", "x.yaml", "--help"])).stdout).toMatch(/^verdict run --catalog FILE/);
    expect((await cli(["report", "run-1", "--help"])).stdout).toMatch(/^verdict report RUN_ID/);
    const catalogs = await cli(["catalogs", "--help"]);
    expect(catalogs.code).toBe(0);
    expect(catalogs.stdout).toContain("verdict catalogs import FILE");
    expect(catalogs.stdout).toContain("verdict catalogs export KEY");
    // A group alone lists its commands too, as an incomplete command (exit 2, like `verdict` alone).
    for (const group of ["catalogs", "evals", "keys"]) {
      const alone = await cli([group]);
      expect({ code: alone.code, stdout: alone.stdout }, group).toEqual({ code: 2, stdout: "" });
      expect(alone.stderr, group).toMatch(new RegExp(`^verdict ${group}: name one of its commands\n`));
      expect(alone.stderr, group).toContain((await cli([group, "--help"])).stdout);
    }
    expect((await cli(["report", "--help"])).stdout).toMatch(/as\s+HTML unless --format says md or json/);
    // The guide's name for it (activeagent evals report RUN).
    expect(await cli(["evals", "report", "--help"])).toMatchObject({ code: 0, stdout: expect.stringContaining("verdict evals report RUN_ID") });
  });

  it("still refuses an unknown command that asks for help, and a --help after `--`", async () => {
    expect(await cli(["bogus", "--help"])).toMatchObject({ code: 2, stderr: 'verdict: unknown command "bogus"; run `verdict help`' });
    expect(await cli(["help", "bogus"])).toMatchObject({ code: 2, stderr: 'verdict: unknown command "bogus"; run `verdict help`' });
    // A group's unknown subcommand is not answered with another command's usage.
    expect(await cli(["evals", "export", "--help"])).toMatchObject({ code: 2 });
    expect(await cli(["keys", "delete", "--help"])).toMatchObject({ code: 2 });
    expect(await cli(["keys", "create", "--", "--help"])).toMatchObject({ code: 2 });
  });
});

describe("verdict help's environment", () => {
  // The CLI README sends users to `verdict help` for the environment, and it named none of the
  // plan's switches, the API limits, the PostgreSQL timeouts or the providers' keys.
  const environment = USAGE.slice(USAGE.indexOf("Environment\n"), USAGE.indexOf("Exit codes:"));
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const table = readme.slice(readme.indexOf("| variable | default | used by |"), readme.indexOf("## Other commands"));

  it("names every variable the CLI's commands read", () => {
    const read = [
      "VERDICT_QUOTA_EXECUTIONS", "VERDICT_QUOTA_REPORTS", "VERDICT_EXECUTION_DISABLED",
      "VERDICT_API_MAX_KEY_OPERATIONS", "VERDICT_API_MAX_ANSWER_BYTES", "VERDICT_API_MAX_HELD_ANSWER_BYTES",
      "VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT", "VERDICT_API_HEAVY_LOAD_WAIT_MS", "VERDICT_API_CORS_ORIGINS",
      "VERDICT_PG_CONNECT_TIMEOUT_MS", "VERDICT_PG_QUERY_TIMEOUT_MS", "VERDICT_PG_KEEPALIVE_IDLE_MS", "VERDICT_PG_SESSION_CHECK_MS",
      "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "OLLAMA_BASE_URL",
    ];
    for (const name of read) expect(environment, name).toMatch(new RegExp(`\\b${name}\\b`));
  });

  it("names only variables README.md's environment table describes", () => {
    const named = [...new Set(environment.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\bPORT\b/g))];
    expect(named.length).toBeGreaterThan(20);
    for (const name of named) expect(table, name).toContain(`\`${name}\``);
  });

  it("says exit code 1 covers a plan's refusal", () => {
    expect(USAGE).toContain("1 run failed, gate missed, or a plan refused the start or import");
  });
});

describe("--theme in the READMEs", () => {
  it("says auto is accepted beside light and dark wherever it lists the values", () => {
    // README.md said `--theme light|dark`; themeFlag.ts takes auto too (the default).
    for (const file of ["../../README.md", "./README.md"]) {
      const text = readFileSync(new URL(file, import.meta.url), "utf8");
      const lists = text.match(/--theme light\\?\|dark(?:\\?\|auto)?/g) ?? [];
      expect(lists.length, file).toBeGreaterThan(0);
      for (const list of lists) expect(list.endsWith("auto"), `${file}: ${list}`).toBe(true);
    }
  });
});


describe("verdict --version", () => {
  // It answered `unknown command "--version"` (exit 2).
  it("prints the package.json version, as --version or version, exit 0", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    for (const argv of [["--version"], ["version"]]) {
      expect(await cli(argv), argv[0]).toEqual({ code: 0, stdout: `verdict ${version}`, stderr: "" });
    }
    expect(USAGE).toContain("version (or --version)");
  });

  // `version --help`, `--version --help` and `--version extra` said `unknown command "version"`.
  it("prints its help as any command does, and refuses an argument by name", async () => {
    for (const argv of [["version", "--help"], ["--version", "-h"], ["help", "version"]]) {
      expect(await cli(argv), argv.join(" ")).toEqual({ code: 0, stdout: expect.stringMatching(/^verdict version \(or --version\)\n {6}Prints verdict's version/), stderr: "" });
    }
    expect(await cli(["--version", "extra"])).toEqual({ code: 2, stdout: "", stderr: 'verdict version: takes no arguments (got "extra")' });
  });
});
