// The API as a process (main.ts): no DATABASE_URL, a PORT that is not a port number, a HOST that is
// empty or not this machine's, a bad limit, quota or VERDICT_PG_* setting, a port another process
// holds, and an argument (it takes none), each stop it at start with one line naming the variable, exit 2.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type AddressInfo, type Server } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { missingDatabase } from "../../infra/services/missingDatabase.js";
import { whereOf } from "@verdict/infra/pg";

const here = dirname(fileURLToPath(import.meta.url));
const TSX = import.meta.resolve("tsx");
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase("verdict_api_main");
});

afterAll(async () => {
  await db?.drop();
});

/** Children still running: killed after each case, even one whose assertion failed before they ended. */
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
});

/** main.ts run to its end (it must end by itself: each case stops it at start), with what it printed. */
function api(env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // tsx by its path (an `--import tsx` is resolved from the cwd), with the tsconfig that enables decorators (decoratorTsconfig.ts).
  const child = spawn(process.execPath, ["--import", TSX, join(here, "main.ts"), ...args], { cwd: join(here, "..", ".."), env: { ...process.env, TSX_TSCONFIG_PATH: join(here, "tsconfig.json"), DATABASE_URL: db.url, VERDICT_READ_DATABASE_URL: "", HOST: "127.0.0.1", ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  running.add(child);
  // One that serves instead (a build that read "0x1064" as 4196) is stopped, so the case fails rather than hangs.
  const serving = setTimeout(() => child.kill(), 30_000);
  // On "close", not "exit": the process may have exited with its stdio not yet read to the end.
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(serving);
      running.delete(child);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe("tsx apps/api/main.ts", () => {
  it("refuses a PORT that is not decimal digits, or is empty, naming PORT and its range", async () => {
    const bad = ["0x1064", "4.1e3", "", "65536"];
    const ended = await Promise.all(bad.map((PORT) => api({ PORT })));
    ended.forEach(({ code, stdout, stderr }, i) => {
      expect(stdout).toBe("");
      expect(stderr.trim()).toBe(`PORT must be a port number 0-65535 (got ${JSON.stringify(bad[i])})`);
      expect(code).toBe(2);
    });
  }, 60_000);

  it("refuses a bad API limit, plan or PostgreSQL setting, naming its variable, and exits 2", async () => {
    const bad = [{ VERDICT_API_MAX_KEY_OPERATIONS: "0" }, { VERDICT_API_MAX_ANSWER_BYTES: "64mb" }, { VERDICT_QUOTA_REPORTS: "x" }, { VERDICT_PG_QUERY_TIMEOUT_MS: "60s" }, { VERDICT_API_CORS_ORIGINS: "https://dash.example.com/" }];
    const ended = await Promise.all(bad.map((env) => api({ PORT: "0", ...env })));
    ended.forEach(({ code, stdout, stderr }, i) => {
      expect(stdout).toBe("");
      expect(stderr.trim().split("\n")).toEqual([expect.stringMatching(new RegExp(`^${Object.keys(bad[i])[0]} `))]);
      expect(code).toBe(2);
    });
  }, 60_000);

  it("refuses a database URL the driver cannot use as meant before connecting, naming the variable and the rule, never the password, exit 2", async () => {
    // It parsed, and pg then looked up the user name as the host: a DNS error, exit 1. Or pg's bare "Invalid URL", exit 1.
    const stray = 'has an "@" after the host: a "/", "?" or "#" in the password ends the host early, and the user name would be taken for the host; percent-encode them in the password ("/" as %2F, "?" as %3F, "#" as %23, "@" as %40) (value not shown)';
    const cases = [
      { env: { DATABASE_URL: "postgres://postgres:5432/S3cret@127.0.0.1:5432/verdict" }, line: `DATABASE_URL ${stray}` },
      { env: { DATABASE_URL: "postgres://postgres:pa#S3cret@127.0.0.1:5432/verdict" }, line: "DATABASE_URL is not a valid URL: postgres://user:password@host:port/database, with special characters in the password percent-encoded (value not shown)" },
      { env: { VERDICT_READ_DATABASE_URL: "postgres://postgres:12?S3cret@127.0.0.1/verdict" }, line: `VERDICT_READ_DATABASE_URL ${stray}` },
    ];
    const ended = await Promise.all(cases.map(({ env }) => api({ PORT: "0", ...env })));
    ended.forEach(({ code, stdout, stderr }, i) => {
      expect({ stdout, stderr }).toEqual({ stdout: "", stderr: `${cases[i]!.line}\n` });
      expect(code).toBe(2);
    });
  }, 60_000);

  it("refuses a HOST that is empty, does not resolve or is not this machine's, naming HOST and the rule", async () => {
    // They were `getaddrinfo ENOTFOUND not a host`, exit 1, and an empty HOST= meant 127.0.0.1 silently.
    const bad = [
      { HOST: "not a host", cause: ": ENOTFOUND: no such host" },
      { HOST: "999.1.1.1", cause: ": ENOTFOUND: no such host" },
      { HOST: "", cause: "" },
      { HOST: " ", cause: "" },
      { HOST: "192.0.2.1", cause: ": EADDRNOTAVAIL: not an address of this machine" },
    ];
    const ended = await Promise.all(bad.map(({ HOST }) => api({ PORT: "0", HOST })));
    ended.forEach(({ code, stdout, stderr }, i) => {
      expect(stdout).toBe("");
      expect(stderr).toBe(`HOST must be a host name or IP address of this machine to listen on (default 127.0.0.1; 0.0.0.0 for every interface) (got ${JSON.stringify(bad[i].HOST)}${bad[i].cause})\n`);
      expect(code).toBe(2);
    });
  }, 60_000);

  it("refuses an argument, saying it is configured by environment variables, and exits 2", async () => {
    // `npm run api -- --port 5000 --bogus` served on PORT's port, the arguments ignored.
    const { code, stdout, stderr } = await api({ PORT: "0" }, ["--port", "5000", "--bogus"]);
    expect(stdout).toBe("");
    expect(stderr).toBe('unknown argument "--port": the API takes no arguments; it is configured by environment variables (PORT, HOST, DATABASE_URL, …: apps/api/README.md)\n');
    expect(code).toBe(2);
  }, 60_000);

  it("says in one line to set DATABASE_URL when it is unset, and exits 2", async () => {
    const { code, stdout, stderr } = await api({ DATABASE_URL: "", PORT: "0" });
    expect(stdout).toBe("");
    expect(stderr).toBe("set DATABASE_URL (events, and read models unless VERDICT_READ_DATABASE_URL is set); for everything in one process use `npm start`\n");
    expect(code).toBe(2);
  }, 60_000);

  it("refuses a database that does not exist, naming its variable, the database and createdb, exit 1, and creates none", async () => {
    // MikroORM created a missing read database: the API served an empty one, and valid keys got 401.
    const missing = missingDatabase();
    const line = (variable: string) =>
      `${variable}: database "${missing.name}" does not exist (PostgreSQL at ${whereOf(missing.url)}). Create it (createdb ${missing.name}), or set ${variable} to a database that exists\n`;
    try {
      for (const [env, variable] of [[{ VERDICT_READ_DATABASE_URL: missing.url }, "VERDICT_READ_DATABASE_URL"], [{ DATABASE_URL: missing.url }, "DATABASE_URL"]] as const) {
        const { code, stdout, stderr } = await api({ ...env, PORT: "0" });
        expect({ stdout, stderr, code }).toEqual({ stdout: "", stderr: line(variable), code: 1 });
        expect(await missing.exists()).toBe(false);
      }
    } finally {
      await missing.dropIfCreated();
    }
  }, 60_000);

  it("says in one line that a PORT another process listens on is taken, and exits 2", async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as AddressInfo).port;
    try {
      const { code, stdout, stderr } = await api({ PORT: String(port) });
      expect(stdout).toBe("");
      expect(stderr).toBe(`PORT=${port}: the port is taken (another process listens on 127.0.0.1:${port}); choose another, or 0 for any free one\n`);
      expect(code).toBe(2);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 60_000);
});
