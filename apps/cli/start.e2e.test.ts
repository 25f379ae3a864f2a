// `verdict start --exit` as a user runs it with `npm start -- --exit`: `node scripts/start.mjs`
// (the CLI bundled, on plain node), a child process on the embedded default, its data in a
// temporary VERDICT_HOME. The first start imports the example, runs it across three models
// and writes the report; a second start on the same home reuses everything and runs #2.
import { describe, expect, it, afterAll } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cli, example } from "./testing.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** What `npm start` runs: package.json's start script, minus npm ("node" is this node). */
const START_SCRIPT = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start.split(" ");
const NPM_START = START_SCRIPT.slice(1);
const MODELS = ["gpt-5-mini", "claude-sonnet-4-5", "ollama/qwen3:8b"];

function childEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, VERDICT_HOME: home, PORT: "0" };
  // The child must look like a user's shell: not a vitest worker, no services configured.
  for (const name of Object.keys(env)) if (name.startsWith("VITEST") || name === "TSX_TSCONFIG_PATH") delete env[name];
  delete env.DATABASE_URL;
  delete env.VERDICT_READ_DATABASE_URL;
  delete env.KAFKA_BROKERS;
  return env;
}

function start(home: string, ...extra: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NPM_START, "--exit", ...extra], { cwd: ROOT, env: childEnv(home), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("verdict start --exit (embedded default)", () => {
  it("is what package.json's start script runs, with the node flags the platform bench measures", async () => {
    const { EMBEDDED_NODE_FLAGS } = (await import("../../scripts/bundle.mjs")) as typeof import("../../scripts/bundle.mjs");
    expect(START_SCRIPT).toEqual(["node", ...EMBEDDED_NODE_FLAGS, "scripts/start.mjs", "start"]);
  });

  let home = "";
  /** The external run the serving start's test starts, which no later start may claim to finish. */
  let externalRun: { runId: string; number: number } | null = null;
  afterAll(async () => {
    if (home) await rm(home, { recursive: true, force: true });
  });

  it("runs the example across three models and prints the report, and no key that would outlive the server", async () => {
    home = await mkdtemp(join(tmpdir(), "verdict-home-"));
    const first = await start(home);
    expect(first.code, first.stderr).toBe(0);
    const out = first.stdout;
    expect(out).toContain(`embedded: PGlite under ${home}`);
    expect(out).toContain("catalog support: imported (10 scenarios");
    expect(out).toMatch(/run #1 started \([0-9a-f-]{36}\) across gpt-5-mini, claude-sonnet-4-5, ollama\/qwen3:8b/);
    expect(out).toMatch(/\[30\/30\] 20 passed · 10 failed · 0 errored · COMPLETED/);
    // The server stops after the run: no URL, key or subscription that could no longer be used,
    // and no key left behind in the home (one was minted and stored on every start).
    expect(out).not.toMatch(/GraphQL:|vk_|Subscription:|Try:/);
    expect(out).toContain("verdict: claude-sonnet-4-5");
    const reportPath = join(home, "reports", "support-support-smoke-run-1.html");
    expect(out).toContain(`Report:        ${reportPath}`);
    const html = await readFile(reportPath, "utf8");
    for (const model of MODELS) expect(html).toContain(model);
    // examples/README.md's CI command, given the agent's tools as npm start gives them, advises the
    // same fixes: without --tools it listed as missing tools the agent has.
    const markdown = await readFile(join(home, "reports", "support-support-smoke-run-1.md"), "utf8");
    const ci = await cli(["run", "--catalog", example("catalog.yaml"), "--product", "support", "--set", "smoke", "--models", MODELS.join(","),
      "--agent", `scripted:${example("agent.yaml")}`, "--judge", `scripted:${example("judge.yaml")}`, "--tools", example("tools.yaml"), "--quiet"]);
    const fixItems = (text: string) => text.slice(text.indexOf("## What to fix"));
    expect(fixItems(markdown)).toContain("### missing capability ×3");
    expect(fixItems(ci.stdout)).toBe(fixItems(markdown));
    expect(existsSync(join(home, "api-keys.json"))).toBe(false);
    // The home is unlocked after --exit.
    expect(existsSync(join(home, "verdict.pid"))).toBe(false);
  }, 180_000);

  it("starts again on the same home: the catalog is unchanged, the evaluation reused, the run is #2", async () => {
    const second = await start(home);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("catalog support: unchanged");
    expect(second.stdout).toMatch(/evaluation support\/support\/smoke: reusing [0-9a-f-]{36}/);
    expect(second.stdout).toMatch(/run #2 started/);
    const html = await readFile(join(home, "reports", "support-support-smoke-run-2.html"), "utf8");
    for (const model of MODELS) expect(html).toContain(model);
  }, 180_000);

  it("serves until Ctrl-C: the printed subscription works as pasted, with the printed header", async () => {
    const child: ChildProcess = spawn(process.execPath, NPM_START, { cwd: ROOT, env: childEnv(home), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk) => {
        stdout += chunk;
        if (stdout.includes("press Ctrl-C to stop")) resolve();
      });
      child.on("exit", (code) => reject(new Error(`start exited early (${code}): ${stdout}`)));
    });
    const wsUrl = /subscriptions over graphql-ws at (ws:\/\/\S+)\)/.exec(stdout)![1];
    const header = /Header: +Authorization: (Bearer vk_\S+)/.exec(stdout)![1];
    const subscription = /Subscription: +(subscription \{.*\})\n/.exec(stdout)![1];
    expect(stdout).toMatch(/run #3 started/);
    // The probes it prints answer without a key: the embedded API is the same server.
    const [, healthz, readyz] = /Probes: +(http:\/\/\S+\/healthz) \(liveness\) and (http:\/\/\S+\/readyz)/.exec(stdout)!;
    expect(await fetch(healthz).then(async (res) => [res.status, await res.json()])).toEqual([200, { status: "ok" }]);
    expect(await fetch(readyz).then(async (res) => [res.status, await res.json()])).toEqual([200, { status: "ready" }]);
    const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { Authorization: header }, retryAttempts: 0 });
    const seen: Array<{ runProgress: { completed: number; total: number; status: string } }> = [];
    await new Promise<void>((resolve, reject) => {
      client.subscribe<{ runProgress: { completed: number; total: number; status: string } }>({ query: subscription }, {
        next: (value) => (value.errors ? reject(new Error(value.errors[0].message)) : seen.push(value.data!)),
        error: reject,
        complete: resolve,
      });
    });
    await client.dispose();
    // The run ended before we subscribed: its final progress, then the subscription completes.
    expect(seen.at(-1)!.runProgress).toMatchObject({ completed: 30, total: 30, status: "COMPLETED" });
    // The run was started with the example agent's tool roster (examples/support/tools.yaml): the
    // missing-capability diagnosis of the refund scenario says which tools the agent does have.
    const runId = /runProgress\(runId: "([^"]+)"\)/.exec(subscription)![1];
    const answer = await fetch(wsUrl.replace(/^ws/, "http"), {
      method: "POST",
      headers: { authorization: header, "content-type": "application/json" },
      body: JSON.stringify({ query: `query ($id: ID!) { run(id: $id) { results(fault: "missing_capability") { edges { node { scenarioKey diagnosis } } } } }`, variables: { id: runId } }),
    }).then((res) => res.json() as Promise<{ data: { run: { results: { edges: Array<{ node: { scenarioKey: string; diagnosis: { evidence: { tools_available: string[] } } } }> } } } }>);
    const refunds = answer.data.run.results.edges.map((edge) => edge.node);
    expect(refunds.map((r) => r.scenarioKey)).toEqual(["refund_damaged_item", "refund_damaged_item", "refund_damaged_item"]);
    expect(refunds[0].diagnosis.evidence.tools_available).toEqual(expect.arrayContaining(["lookup_order", "lookup_payments", "cancel_order"]));
    expect(refunds[0].diagnosis.evidence.tools_available).not.toContain("issue_refund");
    // An external run on the example's evaluation, which its host (here, no one) records and completes.
    const evaluationId = /evaluation support\/support\/smoke: reusing ([0-9a-f-]{36})/.exec(stdout)![1];
    const started = await fetch(wsUrl.replace(/^ws/, "http"), {
      method: "POST",
      headers: { authorization: header, "content-type": "application/json" },
      body: JSON.stringify({ query: "mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId number } }", variables: { id: evaluationId } }),
    }).then((res) => res.json() as Promise<{ data: { startRun: { runId: string; number: number } } }>);
    externalRun = started.data.startRun;
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(stdout).toContain("SIGINT: stopping");
    expect(existsSync(join(home, "verdict.pid"))).toBe(false);
    // The printed key lasted as long as the server: it was never stored.
    expect(existsSync(join(home, "api-keys.json"))).toBe(false);
  }, 180_000);

  it("a later start leaves an external run to its host, saying so, where it said it would finish it", async () => {
    const next = await start(home, "--models", "gpt-5-mini");
    expect(next.code, next.stderr).toBe(0);
    const { runId, number } = externalRun!;
    expect(next.stdout).toMatch(new RegExp(`run #${number} \\(${runId}\\) is an external run, still (PENDING|RUNNING): its host records its replays and completes it \\(completeExternalRun\\), not this start`));
    expect(next.stdout).not.toContain(`(${runId}) was left unfinished`);
    expect(next.stdout).not.toContain(`Run #${number} (left unfinished earlier)`);
  }, 180_000);

  it("a start stopped with Ctrl-C mid-run says what becomes of its run, and its report is written, at the stop or by the next start", async () => {
    // The home of the starts above (no second initdb, ~15 s here), or its own when run alone.
    home ||= await mkdtemp(join(tmpdir(), "verdict-home-"));
    // One model (10 pairs), to keep the two starts short.
    const child: ChildProcess = spawn(process.execPath, [...NPM_START, "--exit", "--models", "gpt-5-mini"], { cwd: ROOT, env: childEnv(home), stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    let stdout = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk) => {
        stdout += chunk;
        if (/\[[2-8]\/10\]/.test(stdout)) resolve();
      });
      child.on("exit", (code) => reject(new Error(`start exited before Ctrl-C (${code}): ${stdout}`)));
    });
    child.kill("SIGINT");
    expect(await exited).toBe(1);
    const [, number, runId] = /run #(\d+) started \(([0-9a-f-]{36})\)/.exec(stdout)!;
    const reports = join(home, "reports");
    const html = join(reports, `support-support-smoke-run-${number}.html`);
    const markdown = html.replace(/html$/, "md");
    expect(stdout).toContain("SIGINT: stopping before the run finished");
    // The worker is stopped first, its jobs in flight let finish: whether that finishes the run is
    // a matter of timing (mid-run, its dispatcher is gone before the last pair asks for completion).
    const finishedAtStop = `run #${number} (${runId}) finished as the worker stopped; report: ${html} and ${markdown}`;
    const leftToNext = `run #${number} (${runId}) is unfinished: the next start finishes it and writes its report under ${reports}`;
    expect([finishedAtStop, leftToNext].filter((line) => stdout.includes(line))).toHaveLength(1);
    if (stdout.includes(leftToNext)) {
      // Its pairs all scored, the run lacks only its completion, which the next start's worker
      // sends before the run is listed: it is still named, and its report written.
      const next = await start(home, "--models", "gpt-5-mini");
      expect(next.code, next.stderr).toBe(0);
      expect(next.stdout).toContain(`Run #${number} (left unfinished earlier) report: ${html} and ${markdown}`);
    }
    expect(await readFile(markdown, "utf8")).toMatch(/^\| `gpt-5-mini` \| 7\/10 \(70%\) \|/m);
    expect(existsSync(join(home, "verdict.pid"))).toBe(false);
  }, 240_000);

  it("a start killed mid-run: the next start names the run it left, finishes it and saves its report beside its own", async () => {
    const killedHome = await mkdtemp(join(tmpdir(), "verdict-home-"));
    try {
      const child: ChildProcess = spawn(process.execPath, [...NPM_START, "--exit"], { cwd: ROOT, env: childEnv(killedHome), stdio: ["ignore", "pipe", "pipe"] });
      const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
      let stdout = "";
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on("data", (chunk) => {
          stdout += chunk;
          // Killed (SIGKILL: nothing to clean up) once a few pairs are scored, well before the 30th.
          if (/\[([3-9]|1\d)\/30\]/.test(stdout)) resolve();
        });
        child.on("exit", (code) => reject(new Error(`start exited before it was killed (${code}): ${stdout}`)));
      });
      child.kill("SIGKILL");
      await exited;
      const runId = /run #1 started \(([0-9a-f-]{36})\)/.exec(stdout)![1];
      const next = await start(killedHome);
      expect(next.code, next.stderr).toBe(0);
      expect(next.stdout).toContain(`run #1 (${runId}) was left unfinished by an earlier start: it is finished too, its report saved once it is done`);
      expect(next.stdout).toMatch(/run #2 started/);
      const earlierReport = join(killedHome, "reports", "support-support-smoke-run-1.html");
      expect(next.stdout).toContain(`Run #1 (left unfinished earlier) report: ${earlierReport} and ${earlierReport.replace(/html$/, "md")}`);
      // The finished run's report holds every pair once, as an uninterrupted run's does.
      expect(await readFile(earlierReport.replace(/html$/, "md"), "utf8")).toMatch(/^\| `gpt-5-mini` \| 7\/10 \(70%\) \|/m);
    } finally {
      await rm(killedHome, { recursive: true, force: true });
    }
  }, 240_000);
});
