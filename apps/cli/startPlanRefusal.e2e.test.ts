// `verdict start` whose plan refuses the example's run (VERDICT_EXECUTION_DISABLED, a quota
// reached): it said it failed and stopped, so the platform could not be used at all, where the
// README says imports and reads still work. Now it says why and, without --exit, serves on; the
// run an earlier start left is reported when it stops, as at a stop mid-run.
import { afterAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
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

function startChild(settings: NodeJS.ProcessEnv = {}, ...extra: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, VERDICT_HOME: home, PORT: "0", VERDICT_EXECUTION_DISABLED: "true", ...settings };
  for (const name of Object.keys(env)) if (name.startsWith("VITEST") || name === "TSX_TSCONFIG_PATH") delete env[name];
  for (const name of ["DATABASE_URL", "VERDICT_READ_DATABASE_URL", "KAFKA_BROKERS"]) delete env[name];
  const child = spawn(process.execPath, [...NPM_START, ...extra], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk) => (output.stdout += chunk));
  child.stderr.on("data", (chunk) => (output.stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { child, output, exited };
}

const RUN_STATUS = "query ($id: ID!) { run(id: $id) { status } }";

describe("verdict start when the plan refuses the example run", () => {
  it("without --exit, says why, serves what the plan allows, and at Ctrl-C reports the run an earlier start left; with --exit, says why and exits 1", async () => {
    home = await mkdtemp(join(tmpdir(), "verdict-refused-"));
    // An earlier start killed mid-run (no drain): its run is left unfinished.
    const killed = startChild({ VERDICT_EXECUTION_DISABLED: "false" }, "--exit", "--models", "gpt-5-mini");
    await new Promise<void>((resolve) => killed.child.stdout.on("data", () => /\[[2-8]\/10\]/.test(killed.output.stdout) && resolve()));
    killed.child.kill("SIGKILL");
    await killed.exited;
    const [, runId] = /run #1 started \(([0-9a-f-]{36})\)/.exec(killed.output.stdout)!;

    const serving = startChild();
    await new Promise<void>((resolve, reject) => {
      serving.child.stdout.on("data", () => serving.output.stdout.includes("press Ctrl-C to stop") && resolve());
      void serving.exited.then((code) => reject(new Error(`start exited (${code}): ${serving.output.stdout}${serving.output.stderr}`)));
    });
    expect(serving.output.stderr).toContain(REFUSED);
    expect(serving.output.stdout).toContain(`run #1 (${runId}) was left unfinished by an earlier start`);
    // No run of its own to follow: no subscription or query of one to paste.
    expect(serving.output.stdout).not.toMatch(/Subscription:|Try:/);
    const url = /GraphQL: +(http:\/\/\S+)/.exec(serving.output.stdout)![1];
    const header = /Header: +Authorization: (Bearer vk_\S+)/.exec(serving.output.stdout)![1];
    const query = (body: object) =>
      fetch(url, { method: "POST", headers: { authorization: header, "content-type": "application/json" }, body: JSON.stringify(body) }).then((res) => res.json() as Promise<{ data?: any; errors?: unknown }>);
    const listed = await query({ query: "{ evaluations(first: 5) { edges { node { name } } } }" });
    expect(listed.errors).toBeUndefined();
    expect(listed.data.evaluations.edges.length).toBeGreaterThan(0);
    // This start's worker finishes the earlier run while it serves.
    for (let tries = 0; (await query({ query: RUN_STATUS, variables: { id: runId } })).data?.run.status !== "COMPLETED"; tries++) {
      expect(tries, "run #1 never completed").toBeLessThan(300);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    serving.child.kill("SIGINT");
    expect(await serving.exited).toBe(0);
    expect(serving.output.stdout).toContain("SIGINT: stopping");
    const html = join(home, "reports", "support-support-smoke-run-1.html");
    expect(serving.output.stdout).toContain(`run #1 (${runId}) finished as the worker stopped; report: ${html}`);
    expect(existsSync(html)).toBe(true);

    const once = startChild({}, "--exit");
    expect(await once.exited, once.output.stdout + once.output.stderr).toBe(1);
    expect(once.output.stderr).toContain(REFUSED);
    expect(once.output.stderr).not.toContain("verdict start failed");
  }, 180_000);
});
