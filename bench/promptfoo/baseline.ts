// The platform bench's baseline, measured in the same run: promptfoo 0.120, the scale reference
// issue #6 gives ("1,000 tests x 3 echo providers, three assertions in 21-25 s on this kind of
// machine, about 130 results/s at 334 MB"; the target is 10x that). It runs the bench's shape:
// one test per scenario whose prompt carries the scripted agent's answer, three `echo`
// providers (each answers with its prompt), and the bench's three rule checks as promptfoo
// assertions (contains, not-contains, a length check), at the bench's worker concurrency.
// promptfoo is not a dependency of the project: bench/promptfoo/install.sh puts it in
// .build/promptfoo, and without it the bench says so and goes on.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface BaselineShape {
  scenarios: number;
  models: readonly string[];
  answer: string;
  concurrency: number;
}

export interface PromptfooBaseline {
  version: string;
  results: number;
  passed: number;
  /** promptfoo's own evaluation, from its start to the export of every result (its metadata). */
  evalMs: number;
  resultsPerSecond: number;
  /** The whole `promptfoo eval` process, its start-up included. */
  processMs: number;
  peakRssMb: number;
}

/** Where install.sh puts promptfoo (VERDICT_BENCH_PROMPTFOO_DIR overrides it). */
export function promptfooDir(root: string): string {
  return process.env.VERDICT_BENCH_PROMPTFOO_DIR ?? join(root, ".build", "promptfoo");
}

function promptfooMain(dir: string): string {
  return join(dir, "node_modules", "promptfoo", "dist", "src", "main.js");
}

export function promptfooInstalled(root: string): boolean {
  return existsSync(promptfooMain(promptfooDir(root)));
}

function config(shape: BaselineShape): object {
  const tests = [];
  for (let i = 0; i < shape.scenarios; i++) {
    tests.push({
      vars: { question: `Scenario ${i}: ${shape.answer}` },
      assert: [
        { type: "contains", value: "order" },
        { type: "not-contains", value: "sorry" },
        { type: "javascript", value: "output.length >= 20" },
      ],
    });
  }
  return {
    description: "verdict platform bench baseline",
    prompts: ["{{question}}"],
    providers: shape.models.map((label) => ({ id: "echo", label })),
    tests,
  };
}

// Loaded into promptfoo's process: its peak RSS, written where the bench reads it.
const PEAK_RSS_PRELOAD = `process.on("exit", () => require("node:fs").writeFileSync(process.env.VERDICT_PEAK_RSS_FILE, String(process.resourceUsage().maxRSS)));\n`;

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

interface PromptfooOutput {
  results: { stats: { successes: number; failures: number; errors: number } };
  metadata: { promptfooVersion: string; evaluationCreatedAt: string; exportedAt: string };
}

/** Runs promptfoo on the shape (in a temp HOME, no cache) and returns its figures. */
export async function promptfooBaseline(root: string, shape: BaselineShape): Promise<PromptfooBaseline> {
  const dir = await mkdtemp(join(tmpdir(), "verdict-bench-promptfoo-"));
  try {
    const configPath = join(dir, "promptfooconfig.json");
    const outputPath = join(dir, "output.json");
    const preload = join(dir, "peak-rss.cjs");
    const rssFile = join(dir, "peak-rss");
    await writeFile(configPath, JSON.stringify(config(shape)));
    await writeFile(preload, PEAK_RSS_PRELOAD);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: dir,
      PROMPTFOO_DISABLE_TELEMETRY: "1",
      PROMPTFOO_DISABLE_UPDATE: "1",
      // Its per-run log files: winston's file transport sometimes writes after its stream ended
      // as the process exits, and the crash loses the run. Without them promptfoo also does less
      // work, so the baseline errs in its favour.
      PROMPTFOO_DISABLE_DEBUG_LOG: "1",
      PROMPTFOO_DISABLE_ERROR_LOG: "1",
      NODE_OPTIONS: `--require ${preload}`,
      VERDICT_PEAK_RSS_FILE: rssFile,
    };
    const args = [promptfooMain(promptfooDir(root)), "eval", "-c", configPath, "-o", outputPath, "-j", String(shape.concurrency), "--no-cache", "--no-table", "--no-progress-bar"];
    const started = performance.now();
    const { code, output } = await run(args, env);
    const processMs = performance.now() - started;
    if (code !== 0) throw new Error(`promptfoo eval exited with ${code}:\n${output.slice(-2000)}`);
    const result = JSON.parse(await readFile(outputPath, "utf8")) as PromptfooOutput;
    const { stats } = result.results;
    const results = stats.successes + stats.failures + stats.errors;
    const expected = shape.scenarios * shape.models.length;
    if (results !== expected) throw new Error(`promptfoo ran ${results} of ${expected} test cases`);
    const evalMs = Date.parse(result.metadata.exportedAt) - Date.parse(result.metadata.evaluationCreatedAt);
    return {
      version: result.metadata.promptfooVersion,
      results,
      passed: stats.successes,
      evalMs,
      resultsPerSecond: Math.round(results / (evalMs / 1000)),
      processMs: Math.round(processMs),
      peakRssMb: Math.round(Number(await readFile(rssFile, "utf8")) / 1024),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
