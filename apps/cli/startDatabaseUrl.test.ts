// `verdict start` as `npm start` runs it (node scripts/start.mjs, the CLI bundled), with a
// DATABASE_URL that parses but that the driver would not use as meant: a "/" in the password ends
// the host early, and pg looked up the user name as the host (a DNS error). Refused before
// anything is opened: one line naming the variable and the rule, never the password, exit 2.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function start(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["scripts/start.mjs", "start", "--exit"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe("verdict start with a DATABASE_URL whose password ends the host early", () => {
  it("refuses it before connecting, naming DATABASE_URL and the rule, never the password, exit 2", async () => {
    const home = await mkdtemp(join(tmpdir(), "verdict-start-url-"));
    const env: NodeJS.ProcessEnv = { ...process.env, VERDICT_HOME: home, PORT: "0", DATABASE_URL: "postgres://verdict:2024/S3cret@127.0.0.1:5432/verdict" };
    for (const name of Object.keys(env)) if (name.startsWith("VITEST") || name === "TSX_TSCONFIG_PATH" || name === "KAFKA_BROKERS" || name === "VERDICT_READ_DATABASE_URL") delete env[name];
    try {
      expect(await start(env)).toEqual({
        code: 2,
        stdout: "",
        stderr:
          'DATABASE_URL has an "@" after the host: a "/", "?" or "#" in the password ends the host early, and the user name would be taken for the host; ' +
          'percent-encode them in the password ("/" as %2F, "?" as %3F, "#" as %23, "@" as %40) (value not shown)\n',
      });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);
});
