// The Report, the Runner and the comparison load no YAML reader: the `yaml` package adds about
// 8 MB of resident memory, which the report bench's peak RSS (issue 4) counts. A module the
// report path imports that reaches it (as domain/cost did once, through the price table) fails
// this test, naming who imported it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/** The repository's root, whatever folder the tests run from. */
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "verdict-report-modules-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Imports `modules` in a fresh node (under tsx, as the bench's sources run) that refuses to resolve `yaml`. */
function importRefusingYaml(modules: string[]): { status: number | null; stderr: string } {
  const hooks = join(dir, "refuseYaml.mjs");
  writeFileSync(hooks, `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.includes("/node_modules/yaml/")) throw new Error("yaml imported by " + context.parentURL);
  return resolved;
}
`);
  const main = join(dir, "main.mjs");
  writeFileSync(main, `import { register } from "node:module";
register(${JSON.stringify(pathToFileURL(hooks).href)});
${modules.map((path) => `await import(${JSON.stringify(pathToFileURL(join(ROOT, path)).href)});`).join("\n")}
`);
  // From the root, where tsx resolves; without NODE_OPTIONS, which could add flags or warnings.
  const { NODE_OPTIONS: _ignored, ...env } = process.env;
  const child = spawnSync(process.execPath, ["--import", "tsx", main], { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 });
  return { status: child.status, stderr: child.stderr };
}

describe("the report path's modules", () => {
  it("load no YAML reader", () => {
    const loaded = importRefusingYaml(["domain/report/index.ts", "domain/runner/index.ts", "domain/stats/index.ts", "domain/cost/index.ts"]);
    expect(loaded.stderr).not.toContain("yaml imported by");
    expect(loaded.status, loaded.stderr).toBe(0);
  }, 60_000);

  it("would be caught loading one (the check itself works)", () => {
    const loaded = importRefusingYaml(["domain/pricing/index.ts"]);
    expect(loaded.status).not.toBe(0);
    expect(loaded.stderr).toContain("yaml imported by");
  }, 60_000);
});
