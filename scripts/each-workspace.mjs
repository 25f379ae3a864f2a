// Runs one TypeScript command per project (each workspace has its own tsconfig, because
// only apps/api and the cross-package tests may use type-graphql's legacy decorators).
// Usage: node scripts/each-workspace.mjs tsc --noEmit -p
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";

const projects = ["domain", "infra", "apps/api", "apps/projector", "apps/worker", "apps/cli", "test", "."];
const [command, ...args] = process.argv.slice(2);
let failed = 0;
for (const project of projects) {
  if (!existsSync(`${project}/tsconfig.json`)) continue;
  // A workspace with no sources yet would fail with TS18003 "No inputs were found".
  if (project !== "." && !hasTypeScript(project)) continue;
  const run = spawnSync("npx", [command, ...args, project], { stdio: "inherit" });
  if (run.status !== 0) {
    failed += 1;
    console.error(`${command} failed in ${project}`);
  }
}

function hasTypeScript(dir) {
  return readdirSync(dir, { withFileTypes: true }).some((entry) =>
    entry.isDirectory()
      ? entry.name !== "node_modules" && hasTypeScript(`${dir}/${entry.name}`)
      : entry.name.endsWith(".ts"),
  );
}
process.exit(failed === 0 ? 0 : 1);
