import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// scripts/app.mjs (`npm run api|projector|worker`) bundles an app and runs it in its own process.
// Each case stops before any service is needed: what is checked is that the bundle runs and the
// app, not the launcher, reads the arguments after the app's name. (The distributed end-to-end
// tests run every app this way against PostgreSQL and Kafka.)
const root = join(import.meta.dirname, "../..");

function launch(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["DATABASE_URL", "VERDICT_READ_DATABASE_URL", "KAFKA_BROKERS", "TSX_TSCONFIG_PATH", "VITEST"]) delete env[name];
  const run = spawnSync(process.execPath, ["scripts/app.mjs", ...args], { cwd: root, env, encoding: "utf8", timeout: 60_000 });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe("scripts/app.mjs", () => {
  it("refuses an unknown app, naming the ones it runs", () => {
    const result = launch("scheduler");
    expect(result.status).toBe(2);
    expect(result.output).toContain('usage: node scripts/app.mjs <api|projector|worker> [arguments of the app], or --bundle-only (got "scheduler")');
  });

  it("runs the API bundled: its own configuration error, not a re-run under tsx", () => {
    const result = launch("api");
    expect(result).toEqual({ status: 2, output: expect.stringContaining("set DATABASE_URL (events, and read models unless VERDICT_READ_DATABASE_URL is set)") });
  });

  it("hands the worker and the projector the arguments after the app's name: an unknown one is exit 2, as a setting to change", () => {
    const worker = launch("worker", "--bogus");
    expect(worker).toEqual({ status: 2, output: '[worker] error: unknown argument "--bogus": use --dispatcher, --replay and/or --complete (default: all three)\n' });
    const projector = launch("projector", "bogus");
    expect(projector).toEqual({ status: 2, output: 'unknown command "bogus": use run or rebuild\n' });
  });

  it("--bundle-only writes every app's bundle, which then runs on its own from another folder: no launcher, no esbuild", () => {
    const result = launch("--bundle-only");
    expect(result.status).toBe(0);
    const bundles = result.output.trim().split("\n");
    expect(bundles).toEqual(["api", "projector", "worker"].map((app) => join(root, ".build/apps", `${app}.mjs`)));
    // From another folder, as a container's entry point would run it.
    const run = spawnSync(process.execPath, [bundles[2], "--bogus"], { cwd: tmpdir(), encoding: "utf8", timeout: 60_000 });
    expect({ status: run.status, output: run.stdout + run.stderr }).toEqual({ status: 2, output: expect.stringContaining('unknown argument "--bogus"') });
  });
});
