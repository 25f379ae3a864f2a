// `npm start` whose default port another process takes after the probe found it free, before the
// API listens (two starts on different homes launched together: one crashed, `verdict start
// failed: listen EADDRINUSE: address already in use 127.0.0.1:4000`, 2 of 9 trials). A module
// loaded first takes 4000 the moment the probe lets go of it, as the other start did.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** What `npm start` runs: package.json's start script, minus npm. */
const NPM_START = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start.split(" ").slice(1);
const DEFAULT_PORT = 4000;
let dir = "";

const TAKE_AFTER_PROBE = `
  import net from "node:net";
  const close = net.Server.prototype.close;
  let taken = false;
  net.Server.prototype.close = function (callback) {
    if (taken || this.address()?.port !== ${DEFAULT_PORT}) return close.call(this, callback);
    taken = true;
    return close.call(this, (...args) => {
      const other = net.createServer();
      other.listen(${DEFAULT_PORT}, "127.0.0.1", () => { other.unref(); console.error("[taken after the probe]"); callback?.(...args); });
    });
  };
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-port-race-"));
  await writeFile(join(dir, "takeAfterProbe.mjs"), TAKE_AFTER_PROBE);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Whether the default port is free now (the race needs the probe to find it free). */
function defaultFree(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(DEFAULT_PORT, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

describe("npm start when the default port is taken between its probe and its listen", () => {
  it("serves on a free port, saying so, and finishes its run", async (context) => {
    if (!(await defaultFree())) context.skip(); // another process holds 4000: the probe, not the listen, would find it taken
    const env: NodeJS.ProcessEnv = { ...process.env, VERDICT_HOME: join(dir, "home") };
    for (const name of Object.keys(env)) if (name.startsWith("VITEST") || name === "TSX_TSCONFIG_PATH") delete env[name];
    for (const name of ["DATABASE_URL", "VERDICT_READ_DATABASE_URL", "KAFKA_BROKERS", "PORT"]) delete env[name];
    const child = spawn(process.execPath, ["--import", join(dir, "takeAfterProbe.mjs"), ...NPM_START, "--exit", "--models", "gpt-5-mini"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    const output = { stdout: "", stderr: "" };
    child.stdout.on("data", (chunk) => (output.stdout += chunk));
    child.stderr.on("data", (chunk) => (output.stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(output.stderr).toContain("[taken after the probe]");
    expect(output.stderr).not.toContain("EADDRINUSE");
    expect(output.stdout).toContain(`port ${DEFAULT_PORT} is taken; picking a free one (--port or PORT chooses one)`);
    expect(output.stdout).toMatch(/API listening at http:\/\/127\.0\.0\.1:(?!4000\/)\d+\/graphql/);
    expect(code).toBe(0);
  }, 120_000);
});
