// The worker as a process (main.ts): a setting the user must change (a variable missing or
// malformed, a file one names that cannot be used, an unknown argument) stops it at start with
// one line naming the variable and the rule, exit 2, as the API stops; a database it cannot reach
// is not a setting and stays exit 1; a good configuration starts. Needs PostgreSQL and Kafka.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { missingDatabase } from "../../infra/services/missingDatabase.js";
import { whereOf } from "@verdict/infra/pg";
import { brokers } from "./testingProcess.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const TSX = import.meta.resolve("tsx");
let db: TestDatabase;
let files: string;

beforeAll(async () => {
  db = await createTestDatabase("verdict_worker_main");
  files = await mkdtemp(join(tmpdir(), "verdict-worker-main-"));
});

afterAll(async () => {
  await db?.drop();
  if (files) await rm(files, { recursive: true, force: true });
});

/** Children still running: killed after each case, even one whose assertion failed before they ended. */
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
});

interface Worker {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** On "close", not "exit": the process may have exited with its stdio not yet read to the end. */
  ended: Promise<number | null>;
}

function worker(env: NodeJS.ProcessEnv, args: string[] = []): Worker {
  const child = spawn(process.execPath, ["--import", TSX, join(here, "main.ts"), ...args], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      KAFKA_BROKERS: brokers.join(","),
      VERDICT_AGENT: "scripted:examples/support/agent.yaml",
      VERDICT_JUDGE: "none",
      VERDICT_PRICES: "",
      VERDICT_KAFKA_PARTITIONS: "1",
      VERDICT_TOPIC_PREFIX: `m${randomBytes(4).toString("hex")}.`,
      ...env,
    },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  running.add(child);
  const ended = new Promise<number | null>((resolve) =>
    child.on("close", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, ended };
}

/** main.ts run to its end (each such case stops it at start; one that serves instead is stopped, so the case fails rather than hangs). */
async function ended(env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = worker(env, args);
  const serving = setTimeout(() => proc.child.kill(), 30_000);
  const code = await proc.ended;
  clearTimeout(serving);
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

describe("tsx apps/worker/main.ts", () => {
  it("stops at a setting the user must change with one line naming it and its rule, exit 2", async () => {
    const badPrices = join(files, "prices.yaml");
    await writeFile(badPrices, "models:\n  gpt-5: { input: 2.5 }\n");
    const cases: { env: NodeJS.ProcessEnv; args?: string[]; line: string | RegExp }[] = [
      { env: { DATABASE_URL: "" }, line: "DATABASE_URL is not set: the worker reads and writes the event store there (e.g. postgres://postgres@127.0.0.1:5432/verdict)" },
      { env: { DATABASE_URL: "postgres://postgres:5432/S3cret@127.0.0.1:5432/verdict" }, line: /^DATABASE_URL has an "@" after the host: .*percent-encode.*\(value not shown\)$/ },
      { env: { DATABASE_URL: "mysql://u:pw-S3cret@127.0.0.1:5432/db" }, line: "DATABASE_URL is a mysql:// URL: the database must be PostgreSQL, postgres://user:password@host:port/database (or postgresql://) (value not shown)" },
      { env: { VERDICT_TOPIC_PREFIX: "team a/" }, line: 'VERDICT_TOPIC_PREFIX must be at most 200 letters, digits, ".", "_" or "-" (Kafka topic names) (got "team a/")' },
      { env: { KAFKA_BROKERS: "kafka://127.0.0.1:9092" }, line: /^KAFKA_BROKERS entry 1 is not host:port: / },
      { env: { VERDICT_WORKER_CONCURRENCY: "0x4" }, line: 'VERDICT_WORKER_CONCURRENCY must be a whole number >= 1 (got "0x4")' },
      { env: { VERDICT_PG_QUERY_TIMEOUT_MS: "60s" }, line: /^VERDICT_PG_QUERY_TIMEOUT_MS must be a whole number of milliseconds >= 1/ },
      { env: { VERDICT_AGENT: `scripted:${join(files, "missing.yaml")}` }, line: `VERDICT_AGENT: no such file ${join(files, "missing.yaml")}` },
      { env: { VERDICT_PRICES: badPrices }, line: new RegExp(`^VERDICT_PRICES: .*${badPrices.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*output`) },
      { env: {}, args: ["--bogus"], line: 'unknown argument "--bogus": use --dispatcher, --replay and/or --complete (default: all three)' },
      { env: { VERDICT_HEALTH_PORT: "80a" }, line: 'VERDICT_HEALTH_PORT must be a port number 0-65535 (got "80a")' },
    ];
    const results = await Promise.all(cases.map(({ env, args }) => ended(env, args)));
    results.forEach(({ code, stdout, stderr }, i) => {
      const lines = stderr.trimEnd().split("\n");
      expect(lines, `case ${i}: ${stderr}`).toHaveLength(1);
      const line = lines[0]!.replace(/^\[worker\] error: /, "");
      if (typeof cases[i]!.line === "string") expect(line).toBe(cases[i]!.line);
      else expect(line).toMatch(cases[i]!.line);
      expect(stdout).toBe("");
      expect(code, `case ${i}: ${stderr}`).toBe(2);
    });
  }, 90_000);

  it("a database it cannot reach is not a setting to change: exit 1", async () => {
    const { code, stderr } = await ended({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/verdict", VERDICT_PG_CONNECT_TIMEOUT_MS: "2000" });
    expect(stderr).toContain("ECONNREFUSED");
    expect(code).toBe(1);
  }, 60_000);

  it("a database that does not exist: one line naming DATABASE_URL, the database and createdb, exit 1", async () => {
    const missing = missingDatabase();
    try {
      const { code, stderr } = await ended({ DATABASE_URL: missing.url });
      expect(stderr).toBe(
        `[worker] error: DATABASE_URL: database "${missing.name}" does not exist (PostgreSQL at ${whereOf(missing.url)}). Create it (createdb ${missing.name}), or set DATABASE_URL to a database that exists\n`,
      );
      expect(code).toBe(1);
    } finally {
      await missing.dropIfCreated();
    }
  }, 60_000);

  it("a Kafka it cannot reach: the last line names KAFKA_BROKERS and the broker, exit 1", async () => {
    // It was kafkajs's bare "Connection error: connect ECONNREFUSED 127.0.0.1:4799".
    const proc = worker({ KAFKA_BROKERS: "127.0.0.1:4799" });
    const code = await proc.ended;
    const last = proc.stderr().trimEnd().split("\n").at(-1);
    expect(last).toBe(
      "[worker] error: KAFKA_BROKERS: cannot reach Kafka at 127.0.0.1:4799 (Connection error: connect ECONNREFUSED 127.0.0.1:4799). " +
        "Start the broker, or set KAFKA_BROKERS to brokers that are reachable (host:port, comma separated).",
    );
    expect(code).toBe(1);
  }, 120_000);

  it("starts on a good configuration, answers its probes (VERDICT_HEALTH_PORT) ready, and stops on SIGTERM with exit 0", async () => {
    const proc = worker({ VERDICT_HEALTH_PORT: "0" });
    const deadline = Date.now() + 45_000;
    // main.ts's startup line, once every role has started.
    while (!/\[worker\] agent .*, judge .*, pid \d+/.test(proc.stderr())) {
      if (Date.now() > deadline) throw new Error(`the worker did not start: ${proc.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const port = Number(proc.stderr().match(/probes at http:\/\/127\.0\.0\.1:(\d+)\/healthz and \/readyz \(VERDICT_HEALTH_PORT\)/)?.[1]);
    expect(port, proc.stderr()).toBeGreaterThan(0);
    const ask = async (path: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      return { status: res.status, body: await res.json(), cache: res.headers.get("cache-control") };
    };
    expect(await ask("/healthz")).toEqual({ status: 200, body: { status: "ok" }, cache: "no-store" });
    expect(await ask("/readyz")).toEqual({ status: 200, body: { status: "ready" }, cache: "no-store" });
    expect(await ask("/readyz?verbose")).toEqual({ status: 400, body: { error: "/readyz takes no query parameters" }, cache: "no-store" });
    proc.child.kill("SIGTERM");
    expect(await proc.ended).toBe(0);
    expect(proc.stderr()).not.toContain("error:");
  }, 60_000);

  it("a probe port another process holds is a setting to change: one line naming VERDICT_HEALTH_PORT, exit 2", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const { code, stderr } = await ended({ VERDICT_HEALTH_PORT: String(port) });
      expect(stderr).toBe(`[worker] error: VERDICT_HEALTH_PORT=${port}: the port is taken (another process listens on 127.0.0.1:${port}); choose another, or 0 for any free one\n`);
      expect(code).toBe(2);
    } finally {
      holder.close();
    }
  }, 60_000);
});
