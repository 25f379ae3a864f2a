// The projector as a process (main.ts) on PostgreSQL: `rebuild` prints what it rebuilt and the
// checksums; `run` follows the log until SIGTERM, then exits cleanly. A setting the user must
// change stops it at start with one line naming it, exit 2, as the API and the worker stop.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { createPgliteEventStore, createPostgresEventStore } from "@verdict/infra";
import type { EventStore } from "@verdict/domain";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { missingDatabase } from "../../infra/services/missingDatabase.js";
import { whereOf } from "@verdict/infra/pg";
import { beginRun, commandDeps, createEvaluation, GPT, recordPair } from "./testing/runFixture.js";

const here = dirname(fileURLToPath(import.meta.url));
const STRAY = 'has an "@" after the host: a "/", "?" or "#" in the password ends the host early, and the user name would be taken for the host; percent-encode them in the password ("/" as %2F, "?" as %3F, "#" as %23, "@" as %40) (value not shown)';
const INVALID = 'is not a valid URL: postgres://user:password@host:port/database, with special characters in the password percent-encoded (value not shown)';
const TSX = import.meta.resolve("tsx");
let eventsDb: TestDatabase;
let readDb: TestDatabase;
let store: EventStore;

beforeAll(async () => {
  eventsDb = await createTestDatabase("verdict_projector_main_events");
  readDb = await createTestDatabase("verdict_projector_main_read");
  store = await createPostgresEventStore({ connectionString: eventsDb.url });
  const deps = commandDeps("acme");
  await createEvaluation(store, deps, "e1", ["a", "b"]);
  const run = await beginRun(store, deps, "e1", "r1", [GPT]);
  await recordPair(store, deps, run, "a", GPT.label, "passed");
});

afterAll(async () => {
  await store?.close();
  await eventsDb?.drop();
  await readDb?.drop();
});

function projector(command: string | string[], { env = { DATABASE_URL: eventsDb.url, VERDICT_READ_DATABASE_URL: readDb.url } as NodeJS.ProcessEnv, cwd = join(here, "..", "..") } = {}) {
  // tsx by its path: an `--import tsx` is resolved from the cwd, which may be outside the project.
  const child = spawn(process.execPath, ["--import", TSX, join(here, "main.ts"), ...(Array.isArray(command) ? command : [command])], { cwd, env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  // On "close", not "exit": the process may have exited with its stdio not yet read to the end.
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

async function runs(): Promise<{ id: string; status: string; completed: number }[]> {
  const client = new pg.Client({ connectionString: readDb.url });
  await client.connect();
  try {
    return (await client.query("SELECT id, status, completed FROM runs ORDER BY id")).rows;
  } finally {
    await client.end();
  }
}

describe("tsx apps/projector/main.ts", () => {
  it("rebuild replays the log and prints the checksums", async () => {
    const proc = projector("rebuild");
    expect(await proc.exited).toBe(0);
    const printed = JSON.parse(proc.output().stdout);
    expect(printed.rebuilt).toBe(1 + 2 + 1 + 2 + 2); // the name reservation, the evaluation, the run's meter, the run, a pair
    expect(printed.checksum.results.rows).toBe(2);
    expect(await runs()).toEqual([{ id: "r1", status: "RUNNING", completed: 1 }]);
  }, 60_000);

  it("refuses a read database without DATABASE_URL, leaving its read models as they are", async () => {
    const before = await runs();
    expect(before.length).toBeGreaterThan(0);
    for (const command of ["rebuild", "run"]) {
      const home = await mkdtemp(join(tmpdir(), "verdict-projector-noevents-"));
      const env = { DATABASE_URL: "", VERDICT_READ_DATABASE_URL: readDb.url, VERDICT_HOME: home };
      const proc = projector(command, { env });
      expect(await proc.exited).toBe(2);
      expect(proc.output().stderr).toBe(
        "VERDICT_READ_DATABASE_URL is set but DATABASE_URL is not: set DATABASE_URL to the event log those read models are made from (or unset VERDICT_READ_DATABASE_URL for the embedded default); nothing was changed\n",
      );
      await rm(home, { recursive: true, force: true });
    }
    expect(await runs()).toEqual(before);
  }, 60_000);

  it("refuses a database URL the driver cannot use as meant before connecting, naming the variable and the rule, never the password, exit 2", async () => {
    // It parsed, and pg then looked up the user name as the host: a DNS error, exit 1. Or pg's bare "Invalid URL", exit 1.
    const cases = [
      { env: { DATABASE_URL: "postgres://postgres:5432/S3cret@127.0.0.1:5432/verdict" }, line: `DATABASE_URL ${STRAY}` },
      { env: { DATABASE_URL: "postgres://postgres:pa#S3cret@127.0.0.1:5432/verdict" }, line: `DATABASE_URL ${INVALID}` },
      { env: { VERDICT_READ_DATABASE_URL: "postgres://postgres:12?S3cret@127.0.0.1/verdict" }, line: `VERDICT_READ_DATABASE_URL ${STRAY}` },
    ];
    const procs = cases.map(({ env }) => projector("run", { env: { DATABASE_URL: eventsDb.url, VERDICT_READ_DATABASE_URL: readDb.url, ...env } }));
    for (const [i, proc] of procs.entries()) {
      const code = await proc.exited;
      expect(proc.output()).toEqual({ stdout: "", stderr: `${cases[i]!.line}\n` });
      expect(code).toBe(2);
    }
  }, 60_000);

  it("stops at an unknown command or a malformed setting with one line naming it, exit 2", async () => {
    const cases = [
      { command: "rebuilt", env: {}, line: 'unknown command "rebuilt": use run or rebuild' },
      { command: ["rebuild", "extra"], env: {}, line: 'unknown argument "extra": the projector takes one command, run or rebuild, and is set by environment variables' },
      { command: "run", env: { VERDICT_PG_QUERY_TIMEOUT_MS: "60s" }, line: 'VERDICT_PG_QUERY_TIMEOUT_MS must be a whole number of milliseconds >= 1, or 0 for no deadline (got "60s")' },
      { command: "rebuild", env: { VERDICT_PG_CONNECT_TIMEOUT_MS: "0x10" }, line: 'VERDICT_PG_CONNECT_TIMEOUT_MS must be a whole number of milliseconds >= 1 (got "0x10")' },
    ];
    const procs = cases.map(({ command, env }) => projector(command, { env: { DATABASE_URL: eventsDb.url, VERDICT_READ_DATABASE_URL: readDb.url, ...env } }));
    for (const [i, proc] of procs.entries()) {
      const code = await proc.exited;
      expect(proc.output()).toEqual({ stdout: "", stderr: `${cases[i]!.line}\n` });
      expect(code).toBe(2);
    }
  }, 60_000);

  it("refuses a database that does not exist, naming its variable, the database and createdb, exit 1, and creates none", async () => {
    // A typo'd read URL was created (MikroORM's default) and projected into.
    const missing = missingDatabase();
    const line = (variable: string) =>
      `${variable}: database "${missing.name}" does not exist (PostgreSQL at ${whereOf(missing.url)}). Create it (createdb ${missing.name}), or set ${variable} to a database that exists\n`;
    try {
      const cases = [
        { env: { DATABASE_URL: eventsDb.url, VERDICT_READ_DATABASE_URL: missing.url }, variable: "VERDICT_READ_DATABASE_URL" },
        { env: { DATABASE_URL: missing.url, VERDICT_READ_DATABASE_URL: readDb.url }, variable: "DATABASE_URL" },
        { env: { DATABASE_URL: missing.url, VERDICT_READ_DATABASE_URL: "" }, variable: "DATABASE_URL" },
      ];
      for (const { env, variable } of cases) {
        const proc = projector("run", { env });
        expect(await proc.exited).toBe(1);
        expect(proc.output()).toEqual({ stdout: "", stderr: line(variable) });
        expect(await missing.exists()).toBe(false);
      }
    } finally {
      await missing.dropIfCreated();
    }
  }, 90_000);

  it("run follows new events and exits 0 on SIGTERM", async () => {
    const proc = projector("run");
    const deadline = Date.now() + 45_000;
    while (!proc.output().stdout.includes("projector following the log")) {
      if (Date.now() > deadline) throw new Error(`projector did not start: ${proc.output().stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const deps = commandDeps("acme");
    await beginRun(store, deps, "e1", "r2", [GPT]);
    while ((await runs()).length < 2) {
      if (Date.now() > deadline) throw new Error("run r2 never reached the read models");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    proc.child.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    expect((await runs()).map((r) => r.id)).toEqual(["r1", "r2"]);
  }, 60_000);
});

describe("tsx apps/projector/main.ts on an embedded home", () => {
  let home: string;
  let elsewhere: string;
  const embedded = { DATABASE_URL: "", VERDICT_READ_DATABASE_URL: "" };

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "verdict-projector-home-"));
    elsewhere = await mkdtemp(join(tmpdir(), "verdict-projector-cwd-"));
    const events = await createPgliteEventStore({ dataDir: join(home, "events") });
    const deps = commandDeps("acme");
    await createEvaluation(events, deps, "e1", ["a", "b"]);
    await beginRun(events, deps, "e1", "r1", [GPT]);
    await events.close();
  }, 60_000);

  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
    await rm(elsewhere, { recursive: true, force: true });
  });

  it("rebuilds the read models of VERDICT_HOME, not of the directory it was started in", async () => {
    const proc = projector("rebuild", { env: { ...embedded, VERDICT_HOME: home }, cwd: elsewhere });
    expect(await proc.exited).toBe(0);
    expect(JSON.parse(proc.output().stdout).rebuilt).toBe(1 + 2 + 1 + 2); // the name reservation, the evaluation, the run's meter, the run
    // The read models are in the log's database, as `verdict start` keeps them: no second one.
    expect(existsSync(join(home, "read"))).toBe(false);
    expect(existsSync(join(elsewhere, ".verdict"))).toBe(false);
    // The lock is released on the way out.
    expect(existsSync(join(home, "verdict.pid"))).toBe(false);
  }, 120_000);

  it("reads a blank DATABASE_URL as unset, as verdict does: the embedded home, not a DNS error", async () => {
    const proc = projector("rebuild", { env: { DATABASE_URL: "   ", VERDICT_READ_DATABASE_URL: " ", VERDICT_HOME: home }, cwd: elsewhere });
    expect(await proc.exited, proc.output().stderr).toBe(0);
    expect(JSON.parse(proc.output().stdout).rebuilt).toBeGreaterThan(0);
  }, 120_000);

  it("refuses a VERDICT_HOME that is a file, exit 2 naming it, as verdict does", async () => {
    const file = join(elsewhere, "a-file");
    await writeFile(file, "not a home");
    const proc = projector("rebuild", { env: { ...embedded, VERDICT_HOME: file }, cwd: elsewhere });
    expect(await proc.exited).toBe(2);
    expect(proc.output()).toEqual({ stdout: "", stderr: `VERDICT_HOME ${file} is a file, not a directory; set VERDICT_HOME to a directory (one that does not exist yet is created)\n` });
  }, 60_000);

  it("says on stderr that a VERDICT_HOME that did not exist was created, and not for one that did", async () => {
    const typo = join(elsewhere, "typo");
    const proc = projector("rebuild", { env: { ...embedded, VERDICT_HOME: typo }, cwd: elsewhere });
    expect(await proc.exited).toBe(0);
    expect(proc.output().stderr).toBe(`projector: VERDICT_HOME ${typo} did not exist: created a new, empty home\n`);
    expect(JSON.parse(proc.output().stdout).rebuilt).toBe(0);
    const again = projector("rebuild", { env: { ...embedded, VERDICT_HOME: typo }, cwd: elsewhere });
    expect(await again.exited).toBe(0);
    expect(again.output().stderr).toBe("");
  }, 120_000);

  it("refuses a home another live process holds, opening none of its databases", async () => {
    // This test's own process stands for a running `verdict start`.
    await writeFile(join(home, "verdict.pid"), `${process.pid}\n`);
    try {
      const proc = projector("rebuild", { env: { ...embedded, VERDICT_HOME: home }, cwd: elsewhere });
      expect(await proc.exited).toBe(2);
      expect(proc.output().stderr).toContain(`is in use by another verdict process (pid ${process.pid})`);
    } finally {
      await rm(join(home, "verdict.pid"), { force: true });
    }
  }, 60_000);
});
