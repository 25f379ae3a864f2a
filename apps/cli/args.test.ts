import { describe, expect, it } from "vitest";
import { fraction, list, oneOf, parseFlags, required } from "./args.js";
import { resolveCommand, runCli } from "./cli.js";
import { CliError, exitCodeOf } from "./errors.js";
import { bufferIo } from "./io.js";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("parseFlags", () => {
  const spec = { values: ["out", "gate"], booleans: ["exit"], positionals: { min: 1, max: 2, names: "RUN_ID" } } as const;

  it("reads values in both spellings, booleans and positionals", () => {
    const parsed = parseFlags("report", ["abc", "--out", "r.html", "--gate=0.8", "--exit"], spec);
    expect(parsed).toEqual({ positionals: ["abc"], values: { out: "r.html", gate: "0.8" }, booleans: { exit: true }, lists: {} });
  });

  it("names an unknown flag, a missing positional, an extra one and an empty value", () => {
    expect(() => parseFlags("report", ["abc", "--bogus"], spec)).toThrow(/verdict report: Unknown option '--bogus'/);
    expect(() => parseFlags("report", [], spec)).toThrow("verdict report: missing RUN_ID");
    expect(() => parseFlags("report", ["a", "b", "c"], spec)).toThrow('verdict report: unexpected argument "c"');
    expect(() => parseFlags("report", ["a", "--out="], spec)).toThrow("verdict report: --out must not be empty");
    expect(() => parseFlags("report", ["a", "--out"], spec)).toThrow(/--out/);
  });

  it("checks required flags, word choices, fractions and lists", () => {
    const parsed = parseFlags("run", ["--gate", "1.5"], { values: ["out", "gate"] });
    expect(() => required("run", parsed, "out", "a file")).toThrow("verdict run: --out is required (a file)");
    expect(() => fraction("run", "gate", parsed.values.gate)).toThrow("verdict run: --gate must be a number from 0 to 1, e.g. 0.8 (got \"1.5\")");
    expect(fraction("run", "gate", "0.75")).toBe(0.75);
    expect(fraction("run", "gate", "1")).toBe(1);
    expect(fraction("run", "gate", ".5")).toBe(0.5);
    for (const odd of ["", " ", "0x1", "1e0", "-0", "0.5 "]) expect(() => fraction("run", "gate", odd)).toThrow(`(got ${JSON.stringify(odd)})`);
    expect(fraction("run", "gate", undefined)).toBeNull();
    expect(oneOf("run", "format", undefined, ["md", "json", "html"] as const, "md")).toBe("md");
    expect(() => oneOf("run", "format", "pdf", ["md", "json", "html"] as const, "md")).toThrow('--format must be md, json or html (got "pdf")');
    expect(list("run", "models", " gpt-5-mini ,claude-sonnet-4-5 ")).toEqual(["gpt-5-mini", "claude-sonnet-4-5"]);
    expect(list("run", "models", " , ")).toEqual([]); // none: the caller says a model is needed
    // An empty name among others was dropped without a word.
    for (const odd of ["a,,b", "a, ,b", "a,"]) expect(() => list("run", "models", odd)).toThrow(`verdict run: --models has an empty name between commas (got ${JSON.stringify(odd)})`);
  });

  it("refuses a flag that takes a value given twice (the last one alone was used)", () => {
    expect(() => parseFlags("run", ["--models", "a", "--models", "b"], { values: ["models"] })).toThrow("verdict run: --models is given twice; give it once (several models comma separated)");
    expect(() => parseFlags("run", ["--out=x", "--out", "y"], { values: ["out"] })).toThrow("verdict run: --out is given twice; give it once");
    expect(parseFlags("run", ["--quiet", "--quiet"], { booleans: ["quiet"] }).booleans.quiet).toBe(true);
  });

  it("gathers a repeatable flag's values in order (none: an empty list), each not empty", () => {
    const spec = { values: ["out"], repeatable: ["metadata"] } as const;
    expect(parseFlags("run", ["--metadata", "a=1", "--out", "x", "--metadata=b=2"], spec).lists).toEqual({ metadata: ["a=1", "b=2"] });
    expect(parseFlags("run", [], spec).lists).toEqual({ metadata: [] });
    expect(() => parseFlags("run", ["--metadata", "a=1", "--metadata", " "], spec)).toThrow("verdict run: --metadata must not be empty");
  });
});

describe("the verdict command", () => {
  it("resolves one- and two-word commands", () => {
    expect(resolveCommand(["run", "--x"])).toEqual({ name: "run", rest: ["--x"] });
    expect(resolveCommand(["catalogs", "import", "f.yaml"])).toEqual({ name: "catalogs import", rest: ["f.yaml"] });
    expect(resolveCommand(["keys", "create"])).toEqual({ name: "keys create", rest: [] });
    expect(resolveCommand(["catalogs"])).toBeNull();
    expect(resolveCommand(["nope"])).toBeNull();
  });

  it("answers 2 for usage errors and 0 for help", async () => {
    const io = bufferIo();
    expect(await runCli(["nope"], io, {})).toBe(2);
    expect(io.stderr.join("")).toContain('unknown command "nope"');
    expect(await runCli(["catalogs", "remove"], io, {})).toBe(2);
    expect(await runCli([], io, {})).toBe(2);
    const help = bufferIo();
    expect(await runCli(["help"], help, {})).toBe(0);
    expect(help.stdout.join("")).toContain("VERDICT_HOME");
  });

  it("says what to set when Kafka is named without PostgreSQL", async () => {
    const io = bufferIo();
    expect(await runCli(["report", "run-1"], io, { KAFKA_BROKERS: "127.0.0.1:9092" })).toBe(2);
    expect(io.stderr.join("")).toMatch(/KAFKA_BROKERS is set but DATABASE_URL is not.*Set DATABASE_URL/);
  });

  it("refuses a read database without the event log it belongs to, as the projector does, before opening anything", async () => {
    const home = join(tmpdir(), `verdict-read-without-log-${process.pid}`);
    for (const argv of [["start", "--exit", "--port", "0"], ["keys", "list"], ["report", "run-1"]]) {
      const io = bufferIo();
      expect(await runCli(argv, io, { VERDICT_HOME: home, VERDICT_READ_DATABASE_URL: "postgres://postgres@127.0.0.1:5432/verdict" }), argv.join(" ")).toBe(2);
      expect(io.stderr.join("")).toContain("VERDICT_READ_DATABASE_URL is set but DATABASE_URL is not: set DATABASE_URL to the event log those read models are made from");
    }
    expect(existsSync(home)).toBe(false);
  });

  it("maps input errors to 2 and everything else to 1", () => {
    expect(exitCodeOf(new CliError("x"))).toBe(2);
    expect(exitCodeOf(Object.assign(new Error("bad"), { code: "validation" }))).toBe(2);
    expect(exitCodeOf(Object.assign(new Error("gone"), { apiCode: "NOT_FOUND" }))).toBe(2);
    expect(exitCodeOf(new Error("boom"))).toBe(1);
  });
});
