// `verdict evals import FILE --evaluation ID` (reference-platform §6.4): a saved envelope becomes
// a completed run through the importReport mutation's code; the same run_id and report again is
// a duplicate (exit 0, nothing written), a different report a conflict (exit 3); a bad envelope,
// file or evaluation is refused (exit 2) naming what is wrong, before anything is written.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createEvaluation, importedRunId } from "@verdict/domain";
import { claimHome, openEventStore, platformMode, Resources } from "./platform.js";
import { cli, exampleRun } from "./testing.js";

const dir = await mkdtemp(join(tmpdir(), "verdict-evals-"));
const env = { VERDICT_HOME: join(dir, "home") };
const evaluationId = randomUUID();
afterAll(() => rm(dir, { recursive: true, force: true }));

const envelope = (threshold: number) => ({
  version: 1, run_id: "ci-7", source: "ci", agent_name: "SupportAgent", suite: "support",
  report: { threshold, models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results: [{ scenario_key: "refund", label: "gpt-5-mini", status: "passed" }] },
});

async function file(name: string, content: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof content === "string" || Buffer.isBuffer(content) ? content : JSON.stringify(content));
  return path;
}

beforeAll(async () => {
  const resources = new Resources();
  try {
    const mode = platformMode(env);
    await claimHome(mode, resources);
    const store = await openEventStore(mode, resources);
    await createEvaluation(store, {
      evaluation_id: evaluationId, tenant: "demo", agent: "SupportAgent", name: "support", scenarios: [{ key: "refund", prompt: "Refund order 1042." }],
    }, { clock: { now: () => new Date() }, ids: { next: () => randomUUID() }, context: { tenant: "demo", actor: "test" } });
  } finally {
    await resources.close();
  }
}, 60_000);

describe("verdict evals import", () => {
  it("imports once, answers the same report again as a duplicate and a different one as a conflict", async () => {
    const saved = await file("ci-7.json", envelope(0.7));
    const runId = importedRunId("demo", "ci-7");
    const first = await cli(["evals", "import", saved, "--evaluation", evaluationId], env);
    expect(first).toEqual({ code: 0, stdout: runId, stderr: `imported ci-7 as run ${runId} (#1) of evaluation ${evaluationId} for tenant demo` });
    const again = await cli(["evals", "import", saved, "--evaluation", evaluationId], env);
    expect(again).toEqual({ code: 0, stdout: runId, stderr: `ci-7 was imported before with this report, as run ${runId} (#1): nothing written` });
    // The same envelope as an editor may save it, with a byte order mark: the same report.
    const withBom = await file("ci-7-bom.json", `\uFEFF${JSON.stringify(envelope(0.7))}`);
    expect(await cli(["evals", "import", withBom, "--evaluation", evaluationId], env)).toMatchObject({ code: 0, stdout: runId });
    const changed = await file("ci-7-changed.json", envelope(0.5));
    expect(await cli(["evals", "import", changed, "--evaluation", evaluationId], env)).toMatchObject({ code: 3, stderr: `${changed}: run_id already exists with a different report` });
    // An invalid report under that run_id is refused naming its field, as under a new run_id: not a conflict.
    const { report: valid, ...rest } = envelope(0.7);
    const invalid = { ...rest, report: { ...valid, results: [{ label: "gpt-5-mini", status: "passed" }] } };
    const missingKey = "report.results[0].scenario_key is required: the key of the scenario the result is for";
    for (const runIdOf of ["ci-7", "ci-new"]) {
      const saved = await file(`invalid-${runIdOf}.json`, { ...invalid, run_id: runIdOf });
      expect(await cli(["evals", "import", saved, "--evaluation", evaluationId], env)).toEqual({ code: 2, stdout: "", stderr: `${saved}: ${missingKey}` });
    }
    // The imported run is there to render, as its export.
    const report = await cli(["report", runId, "--format", "json"], env);
    expect(report.code).toBe(0);
    expect(JSON.parse(report.stdout)).toMatchObject({ version: 1, run_id: "ci-7", report: { threshold: 0.7 } });
    // And by its own run_id, as the guide's report command takes a published run's (not another tenant's).
    expect(await cli(["report", "ci-7", "--format", "json"], env)).toEqual(report);
    expect(await cli(["report", "ci-7", "--format", "md"], env)).toEqual(await cli(["report", runId, "--format", "md"], env));
    // `evals report` is the guide's name for the same command.
    expect(await cli(["evals", "report", "ci-7", "--format", "json"], env)).toEqual(report);
    // Another tenant's run is refused naming the tenant searched and how to pick another, in the
    // words a missing run gets: nothing says the run exists elsewhere.
    const elsewhere = (id: string, tenant: string) => `run ${id} not found for tenant ${tenant} (for another tenant's run, pass --tenant T or set VERDICT_TENANT)`;
    expect(await cli(["report", "ci-7", "--tenant", "acme"], env)).toEqual({ code: 2, stdout: "", stderr: elsewhere("ci-7", "acme") });
    expect(await cli(["report", runId], { ...env, VERDICT_TENANT: "acme" })).toEqual({ code: 2, stdout: "", stderr: elsewhere(runId, "acme") });
    expect(await cli(["report", "ci-8"], env)).toEqual({ code: 2, stdout: "", stderr: elsewhere("ci-8", "demo") });
  }, 60_000);

  it("takes a host run_id that is not a stream id (gh/1234/1): its export gives it back and re-imports as a duplicate", async () => {
    const saved = await file("gh.json", { ...envelope(0.7), run_id: "gh/1234/1" });
    const runId = importedRunId("demo", "gh/1234/1");
    const first = await cli(["evals", "import", saved, "--evaluation", evaluationId], env);
    expect(first).toMatchObject({ code: 0, stdout: runId, stderr: expect.stringMatching(/^imported gh\/1234\/1 as run /) });
    const report = await cli(["report", runId, "--format", "json"], env);
    expect(report.code).toBe(0);
    expect(JSON.parse(report.stdout)).toMatchObject({ version: 1, run_id: "gh/1234/1" });
    expect(await cli(["report", "gh/1234/1", "--format", "json"], env)).toEqual(report);
    const exported = await file("gh-exported.json", report.stdout);
    expect(await cli(["evals", "import", exported, "--evaluation", evaluationId], env)).toMatchObject({ code: 0, stdout: runId, stderr: expect.stringContaining("nothing written") });
    const changed = await file("gh-changed.json", { ...envelope(0.5), run_id: "gh/1234/1" });
    expect(await cli(["evals", "import", changed, "--evaluation", evaluationId], env)).toMatchObject({ code: 3, stderr: `${changed}: run_id already exists with a different report` });
  }, 60_000);

  it("imports `verdict run --format json`'s bare report under --run-id, and says how when it is missing", async () => {
    const local = join(dir, "local.json");
    expect((await cli(exampleRun("--format", "json", "--out", local))).code).toBe(0);
    expect(await cli(["evals", "import", local, "--evaluation", evaluationId], env)).toEqual({
      code: 2, stdout: "",
      stderr: `${local}: a bare report (as \`verdict run --format json\` writes it), not a report envelope: pass --run-id ID (your name for this run, e.g. ci-1234; the same ID again is a duplicate) to import it, or import an envelope exported by \`verdict report RUN_ID --format json\``,
    });
    const runId = importedRunId("demo", "ci-42");
    expect(await cli(["evals", "import", local, "--evaluation", evaluationId, "--run-id", "ci-42"], env)).toEqual({
      code: 0, stdout: runId, stderr: `imported ci-42 as run ${runId} (#3) of evaluation ${evaluationId} for tenant demo`,
    });
    expect(await cli(["evals", "import", local, "--evaluation", evaluationId, "--run-id", "ci-42"], env)).toMatchObject({ code: 0, stderr: expect.stringContaining("nothing written") });
    const exported = JSON.parse((await cli(["report", runId, "--format", "json"], env)).stdout);
    expect(exported).toMatchObject({ version: 1, run_id: "ci-42", source: "verdict run", agent_name: "SupportAgent", suite: "support/support/smoke" });
    expect(await cli(["evals", "import", await file("envelope.json", envelope(0.7)), "--evaluation", evaluationId, "--run-id", "ci-43"], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^--run-id is for a bare report/) });
    expect(await cli(["evals", "import", local, "--evaluation", evaluationId, "--run-id", "r".repeat(256)], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^--run-id: envelope\.run_id: must be 1-255 characters/) });
  }, 60_000);

  it("imports a bare report that names no agent (its product has none) as a run of the evaluation's agent", async () => {
    const local = join(dir, "no-agent.json");
    expect((await cli(exampleRun("--format", "json", "--out", local))).code).toBe(0);
    const { agent_name: _named, ...bare } = JSON.parse(await readFile(local, "utf8")) as Record<string, unknown>;
    const path = await file("no-agent-bare.json", bare);
    // The import refuses another agent's report (session 43): sent as agent "agent", this was a conflict.
    const imported = await cli(["evals", "import", path, "--evaluation", evaluationId, "--run-id", "ci-50"], env);
    expect(imported).toMatchObject({ code: 0, stdout: importedRunId("demo", "ci-50") });
    const exported = JSON.parse((await cli(["report", imported.stdout, "--format", "json"], env)).stdout);
    expect(exported).toMatchObject({ run_id: "ci-50", agent_name: "SupportAgent" });
  }, 60_000);

  it("imports a bare report written with --release and --metadata as it is, and the rebuilt report keeps both", async () => {
    const local = join(dir, "released.json");
    const tags = ["--release", "3f2a9c1b7e4d", "--release-revision", "git:9b1e2f0", "--release-label", "v3", "--metadata", "build=ci-60"];
    expect((await cli(exampleRun(...tags, "--format", "json", "--out", local))).code).toBe(0);
    const imported = await cli(["evals", "import", local, "--evaluation", evaluationId, "--run-id", "ci-60"], env);
    expect(imported).toMatchObject({ code: 0, stdout: importedRunId("demo", "ci-60") });
    const exported = JSON.parse((await cli(["report", imported.stdout, "--format", "json"], env)).stdout);
    expect(exported.report.release).toEqual({ digest: "3f2a9c1b7e4d", revision: "git:9b1e2f0", label: "v3" });
    expect(exported.report.metadata).toMatchObject({ set: "smoke", build: "ci-60" });
    const markdown = (await cli(["report", imported.stdout, "--format", "md"], env)).stdout;
    expect(markdown).toContain("\n\nRelease: v3\n\n");
    // In the stored order (jsonb's, README Status "re-exporting an imported report"), not the file's.
    expect(markdown).toMatch(/\nMetadata: [^\n]*\bbuild ci-60\b/);
  }, 60_000);

  it("refuses a bad envelope, file or evaluation, naming it (exit 2)", async () => {
    const cases: Array<[string[], string]> = [
      [["evals", "import", await file("v2.json", { ...envelope(0.7), version: 2 })], "--evaluation is required"],
      [["evals", "import", await file("v2.json", { ...envelope(0.7), version: 2 }), "--evaluation", evaluationId], `${join(dir, "v2.json")}: envelope.version: must be 1`],
      [["evals", "import", await file("blank.json", { ...envelope(0.7), run_id: "" }), "--evaluation", evaluationId], `${join(dir, "blank.json")}: envelope.run_id: must be 1-255 characters, not blank (got 0 blank)`],
      [["evals", "import", await file("long.json", { ...envelope(0.7), run_id: "r".repeat(256) }), "--evaluation", evaluationId], `${join(dir, "long.json")}: envelope.run_id: must be 1-255 characters, not blank (got 256)`],
      [["evals", "import", await file("broken.json", "{ not json"), "--evaluation", evaluationId], `${join(dir, "broken.json")}: not JSON`],
      [["evals", "import", await file("latin1.json", Buffer.from(JSON.stringify({ ...envelope(0.7), source: "caf\u00e9" }), "latin1")), "--evaluation", evaluationId], `${join(dir, "latin1.json")}: line 1: not UTF-8 text`],
      [["evals", "import", dir, "--evaluation", evaluationId], `${dir} is a directory, not a report envelope`],
      [["evals", "import", join(dir, "missing.json"), "--evaluation", evaluationId], `${join(dir, "missing.json")}: cannot be read (ENOENT: no such file or directory)`],
      [["evals", "import", "/dev/zero", "--evaluation", evaluationId], "/dev/zero: the envelope is over 2,097,152 bytes (reading stopped there)"],
      [["evals", "import", await file("ok.json", envelope(0.7)), "--evaluation", randomUUID()], "--evaluation: evaluation"],
    ];
    for (const [argv, message] of cases) {
      const result = await cli(argv, env);
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.stderr, argv.join(" ")).toContain(message);
    }
    // Another tenant's evaluation (--tenant or VERDICT_TENANT) is refused in the words a missing one gets.
    const missing = randomUUID();
    for (const [flags, extra] of [[["--tenant", "acme"], {}], [[], { VERDICT_TENANT: "acme" }]] as const) {
      const into = async (id: string) => cli(["evals", "import", join(dir, "ok.json"), "--evaluation", id, ...flags], { ...env, ...extra });
      const [foreign, absent] = [await into(evaluationId), await into(missing)];
      expect(foreign.code).toBe(2);
      expect(foreign.stderr.replaceAll(evaluationId, "<id>")).toBe(absent.stderr.replaceAll(missing, "<id>"));
    }
    // Into a home with no event log: no such evaluation, and no database is made for it.
    const fresh = { VERDICT_HOME: join(dir, "fresh") };
    expect(await cli(["evals", "import", join(dir, "ok.json"), "--evaluation", evaluationId], fresh)).toMatchObject({ code: 2, stderr: expect.stringContaining("not found") });
    expect(existsSync(fresh.VERDICT_HOME)).toBe(false);
  }, 60_000);
  it("a bad plan variable is a configuration error naming the variable (exit 2), not the file's, and nothing is read or written", async () => {
    const path = await file("plan.json", { ...envelope(0.7), run_id: "plan-1" });
    for (const [name, value] of [["VERDICT_QUOTA_REPORTS", "x"], ["VERDICT_QUOTA_EXECUTIONS", "-1"], ["VERDICT_EXECUTION_DISABLED", "1"]]) {
      const result = await cli(["evals", "import", path, "--evaluation", evaluationId], { ...env, [name]: value });
      expect(result.code, name).toBe(2);
      expect(result.stderr, name).toMatch(new RegExp(`^verdict evals import: configuration: ${name} must be`));
      expect(result.stderr, name).not.toContain(path);
    }
    const imported = await cli(["evals", "import", path, "--evaluation", evaluationId], env);
    expect(imported.stderr).toMatch(/^imported plan-1 as run/); // none of the refused tries wrote it
  }, 60_000);

  it("refuses a home another verdict process holds without the file's path, naming the --url way into its API (exit 2)", async () => {
    const path = await file("held.json", { ...envelope(0.7), run_id: "held-1" });
    const pidFile = join(env.VERDICT_HOME, "verdict.pid");
    // Our parent (the test runner) stands for the `verdict start` that holds the home.
    await writeFile(pidFile, `${process.ppid}\n`);
    try {
      const result = await cli(["evals", "import", path, "--evaluation", evaluationId], env);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^${env.VERDICT_HOME} is in use by another verdict process \\(pid ${process.ppid}\\)`));
      expect(result.stderr).not.toContain(path);
      expect(result.stderr).toContain("add --url with the URL `verdict start` printed (http://127.0.0.1:4000 by default) and a write key of the run's tenant in VERDICT_API_KEY");
    } finally {
      await rm(pidFile, { force: true });
    }
  }, 60_000);

  it("refuses a report too large for one JSON document naming what to do instead, not with V8's RangeError (exit 1)", async () => {
    const runId = importedRunId("demo", "ci-huge");
    expect((await cli(["evals", "import", await file("huge.json", { ...envelope(0.7), run_id: "ci-huge" }), "--evaluation", evaluationId], env)).code).toBe(0);
    // A 2,000 x 5 run with ~62 KB a pair is over V8's ~512 MB string limit: its envelope, as JSON.stringify meets it.
    const stringify = JSON.stringify;
    const spy = vi.spyOn(JSON, "stringify").mockImplementation((value, ...rest) => {
      if ((value as { run_id?: unknown } | null)?.run_id === "ci-huge") throw new RangeError("Invalid string length");
      return stringify(value, ...(rest as [never]));
    });
    try {
      expect(await cli(["report", runId, "--format", "json"], env)).toEqual({
        code: 1, stdout: "",
        stderr: "verdict report failed: the run's report is too large to send as one JSON document (over 512 MB); use --format md or --format html, or page run { results(first:, after:) } over the API",
      });
    } finally {
      spy.mockRestore();
    }
    expect((await cli(["report", runId, "--format", "md"], env)).code).toBe(0);
  }, 60_000);
});
