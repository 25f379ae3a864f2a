import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The README's install route for an embedder of @verdict/domain, walked as one would: `npm run
// pack:domain`, the tarball installed into a fresh project, README example 1 compiled by the
// embedder's own tsc under strict settings and run on plain node (no tsx). The workspace package
// exports index.ts, which plain node cannot load and which an embedder's tsc type-checked under
// the embedder's flags (203 errors with noUncheckedIndexedAccess); this keeps the tarball usable.
const root = join(import.meta.dirname, "../..");
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");

// The flags an embedder may hold its own code to; the library's declarations must pass them too.
const strictest = {
  target: "ES2022",
  strict: true,
  skipLibCheck: false,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  // No @types/node: the declarations must not need it (the default lib's DOM has AbortSignal).
  types: [],
};

let project: string;
let tarball: string;

/**
 * The environment without what `npm test` tells its script about this repository (its folder as
 * npm_config_local_prefix, its package, a workspace): the embedder's npm install must resolve its
 * own project. The user's npm settings (cache, registry, npmrc) stay.
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const repositoryOnly = /^npm_(lifecycle_|package_|command$|config_local_prefix$|config_workspaces?$|config_include_workspace_root$)/i;
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !repositoryOnly.test(name)));
}

function runSync(command: string, args: string[], cwd: string) {
  const run = spawnSync(command, args, { cwd, env: cleanEnv(), encoding: "utf8", timeout: 90_000 });
  return { status: run.status, stdout: run.stdout, output: `${run.stdout}${run.stderr}` };
}

/** tsc in a child process, asynchronous so that two settings are checked at once. */
function typeCheck(tsconfig: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, "-p", tsconfig], { cwd: project, env: cleanEnv() });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (status) => resolve({ status, output }));
  });
}

/** README example 1: the first TypeScript block under "## The library". */
function readmeExample(): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("\n## The library\n"));
  const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (example === undefined) throw new Error('README.md has no ```ts block under "## The library"');
  return example;
}

beforeAll(() => {
  const packed = runSync("npm", ["run", "--silent", "pack:domain"], root);
  if (packed.status !== 0) throw new Error(`npm run pack:domain failed:\n${packed.output}`);
  tarball = packed.stdout.trim().split("\n").at(-1) ?? "";

  project = mkdtempSync(join(tmpdir(), "verdict-embedder-"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "embedder", private: true, type: "module" }));
  // yaml and zod come from the npm cache the repository's own install filled.
  const installed = runSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], project);
  if (installed.status !== 0) throw new Error(`npm install of ${tarball} failed:\n${installed.output}`);

  // The embedder's agent: a stub that answers, as README's callMyAgent stands for.
  const agent = `async function callMyAgent(prompt: string, provider: string, model: string) {
  return { answer: \`Order 4821 for \${provider}/\${model} (\${prompt.length} characters asked): it shipped.\`, tool_calls: [{ name: "lookup_order" }] };
}
`;
  writeFileSync(join(project, "example.ts"), agent + readmeExample());
  const node16 = { ...strictest, module: "node16", moduleResolution: "node16", outDir: "out" };
  const bundler = { ...strictest, module: "esnext", moduleResolution: "bundler", noEmit: true };
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: node16, files: ["example.ts"] }));
  writeFileSync(join(project, "tsconfig.bundler.json"), JSON.stringify({ compilerOptions: bundler, files: ["example.ts"] }));
}, 120_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("npm run pack:domain: @verdict/domain for an embedder", () => {
  it("packs the build and its runtime dependencies, not the tests, in a package that is not private", () => {
    const listed = runSync("tar", ["-tzf", tarball], root);
    expect(listed.status).toBe(0);
    const files = listed.stdout.trim().split("\n");
    expect(files).toContain("package/dist/index.js");
    expect(files).toContain("package/dist/index.d.ts");
    // No test, no test-only module, no TypeScript source (the declarations are .d.ts).
    expect(files.filter((file) => /\.test\.|testing/.test(file) || /(?<!\.d)\.ts$/.test(file))).toEqual([]);
    expect(files.filter((file) => file !== "package/package.json" && !file.startsWith("package/dist/"))).toEqual([]);

    const manifest = JSON.parse(readFileSync(join(project, "node_modules", "@verdict", "domain", "package.json"), "utf8"));
    const workspace = JSON.parse(readFileSync(join(root, "domain", "package.json"), "utf8"));
    expect(manifest.private).toBeUndefined();
    expect(manifest.exports).toEqual({ ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } });
    expect(manifest.dependencies).toEqual(workspace.dependencies);
  });

  it("type-checks README example 1 with zero errors under strict embedder settings (node16 and bundler resolution), and runs it on plain node", async () => {
    const [node16, bundler] = await Promise.all([typeCheck("tsconfig.json"), typeCheck("tsconfig.bundler.json")]);
    expect(node16).toEqual({ status: 0, output: "" });
    expect(bundler).toEqual({ status: 0, output: "" });

    const run = runSync(process.execPath, ["out/example.js"], project);
    expect(run.output).toContain("# Evaluation — 2 scenarios × 2 models");
    expect(run.output).toContain("| `claude-sonnet-4-5` | 2/2 (100%) |");
    expect(run.status).toBe(0);
  }, 90_000);

  it("loads from CommonJS through import(), as the README says (Node 20 cannot require() it)", () => {
    writeFileSync(
      join(project, "load.cjs"),
      'import("@verdict/domain").then(({ ModelSpec }) => console.log(ModelSpec.parseAll(["gpt-5-mini"])[0].provider));\n',
    );
    expect(runSync(process.execPath, ["load.cjs"], project)).toMatchObject({ status: 0, output: "openai\n" });
  });
});
