// `verdict start` whose plan refuses the example's run (VERDICT_EXECUTION_DISABLED, a quota
// reached): it said it failed and stopped, so the platform could not be used at all, where the
// README says imports and reads still work. Now it says why and, without --exit, serves on.
import { afterAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** What `npm start` runs: package.json's start script, minus npm. */
const NPM_START = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start.split(" ").slice(1);
const REFUSED = "verdict start: the example run was refused: Agent execution is disabled on this dashboard (VERDICT_EXECUTION_DISABLED=true)";

let home = "";
afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

function startChild(...extra: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, VERDICT_HOME: home, PORT: "0", VERDICT_EXECUTION_DISABLED: "true" };
  for (const name of Object.keys(env)) if (name.startsWith("VITEST") || name === "TSX_TSCONFIG_PATH") delete env[name];
  for (const name of ["DATABASE_URL", "VERDICT_READ_DATABASE_URL", "KAFKA_BROKERS"]) delete env[name];
  const child = spawn(process.execPath, [...NPM_START, ...extra], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk) => (output.stdout += chunk));
  child.stderr.on("data", (chunk) => (output.stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { child, output, exited };
}

describe("verdict start when the plan refuses the example run", () => {
  it("with --exit, says why and exits 1; without it, says why and serves what the plan allows until Ctrl-C", async () => {
    home = await mkdtemp(join(tmpdir(), "verdict-refused-"));
    const once = startChild("--exit");
    expect(await once.exited, once.output.stdout + once.output.stderr).toBe(1);
    expect(once.output.stderr).toContain(REFUSED);
    expect(once.output.stderr).not.toContain("verdict start failed");

    const serving = startChild();
    await new Promise<void>((resolve, reject) => {
      serving.child.stdout.on("data", () => serving.output.stdout.includes("press Ctrl-C to stop") && resolve());
      void serving.exited.then((code) => reject(new Error(`start exited (${code}): ${serving.output.stdout}${serving.output.stderr}`)));
    });
    expect(serving.output.stderr).toContain(REFUSED);
    // No run to follow: no subscription or query of one to paste.
    expect(serving.output.stdout).not.toMatch(/Subscription:|Try:/);
    const url = /GraphQL: +(http:\/\/\S+)/.exec(serving.output.stdout)![1];
    const header = /Header: +Authorization: (Bearer vk_\S+)/.exec(serving.output.stdout)![1];
    const answer = await fetch(url, {
      method: "POST",
      headers: { authorization: header, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ evaluations(first: 5) { edges { node { name } } } }" }),
    }).then((res) => res.json() as Promise<{ data?: { evaluations: { edges: Array<{ node: { name: string } }> } }; errors?: unknown }>);
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.evaluations.edges.length).toBeGreaterThan(0);
    serving.child.kill("SIGINT");
    expect(await serving.exited).toBe(0);
    expect(serving.output.stdout).toContain("SIGINT: stopping");
  }, 180_000);
});
