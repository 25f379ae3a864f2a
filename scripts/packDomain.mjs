// `npm run pack:domain`: an installable tarball of @verdict/domain for a host that embeds the
// library (`npm install ./.build/verdict-domain-<version>.tgz`), printed as the last line.
// The workspace package points its exports at index.ts, which the monorepo's apps, tests and
// tsx import as source; an embedder's plain node cannot load .ts, and its own tsc would
// type-check the library's source under the embedder's settings. So this compiles the domain
// (domain/tsconfig.build.json: ESM JavaScript and .d.ts, no tests or test-only files) into
// .build/domain-package/dist, writes that folder a package.json whose exports point at the
// build, and packs it there. ESM only: Node 20 cannot require() it; CommonJS uses import().
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const stage = join(root, ".build", "domain-package");
const destination = join(root, ".build");
const workspace = JSON.parse(readFileSync(join(root, "domain", "package.json"), "utf8"));

// A stale file from an earlier build (a module since removed) must not ship.
rmSync(stage, { recursive: true, force: true });
run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(root, "domain", "tsconfig.build.json")]);

const manifest = {
  name: workspace.name,
  version: workspace.version,
  description: "Verdict's evaluation core for LLM agents: scenarios, a runner, scoring and reports",
  type: "module",
  // The workspace package is private so that the monorepo is never published by accident;
  // the tarball is what an embedder installs, so it is not.
  exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } },
  types: "./dist/index.d.ts",
  files: ["dist"],
  engines: { node: ">=20" },
  // The runtime dependencies, at the versions the monorepo pins and tests.
  dependencies: workspace.dependencies,
};
writeFileSync(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);

const packed = run("npm", ["pack", "--json", "--pack-destination", destination], { cwd: stage });
const [{ filename }] = JSON.parse(packed);
console.log(join(destination, filename));

/** Runs a command, its output passed through; exits with its status when it fails. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], ...options });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? "");
    console.error(`${command} ${args.join(" ")} failed (${result.status ?? result.signal})`);
    process.exit(1);
  }
  return result.stdout;
}
