import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";

// `npm run api|worker|projector -- --help` was an unknown argument (exit 2) with no usage: an
// operator had to find the README to learn the settings. Now it prints them (stdout, exit 0),
// without a database: nothing is opened for it.
const root = join(import.meta.dirname, "../..");

it.each(["api", "worker", "projector"])("npm run %s -- --help prints its usage and settings, exit 0", (app) => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["DATABASE_URL", "VERDICT_READ_DATABASE_URL", "KAFKA_BROKERS", "TSX_TSCONFIG_PATH", "VITEST"]) delete env[name];
  for (const flag of ["--help", "-h"]) {
    const run = spawnSync(process.execPath, ["scripts/app.mjs", app, flag], { cwd: root, env, encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(new RegExp(`^usage: npm run ${app}`));
    expect(run.stdout).toContain("DATABASE_URL");
    expect(run.stdout).toContain(`apps/${app}/README.md`);
    expect(run.status).toBe(0);
  }
});
