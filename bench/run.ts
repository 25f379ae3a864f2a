// `npm run bench`: runs every bench/*.bench.ts in its own process (so each reports its own
// peak RSS), or only those whose name contains one of the words given on the command line.
//   npm run bench -- catalog report
// The benchmarks measure the code as users run it in production: this first compiles them with
// tsc (bench/tsconfig.json, into .build/bench, with the domain files they import) and runs the
// emitted JS with plain node. Under tsx, esbuild's keepNames turns every named closure into an
// Object.defineProperty call and the loader adds resident memory. A bench that is not compiled
// (eventstore imports @verdict/infra, whose exports point at .ts) or a failed build falls back
// to tsx, and says so.   VERDICT_BENCH_TSX=1 npm run bench  forces tsx for every bench.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const compiledDir = join(root, ".build", "bench", "bench");
const filters = process.argv.slice(2);
const allBenches = readdirSync(here).filter((name) => name.endsWith(".bench.ts")).sort();
const benches = allBenches.filter((name) => filters.length === 0 || filters.some((word) => name.includes(word)));

/** Compiles the benches with tsc; false (and the reason printed) when the build fails. */
function build(): boolean {
  if (process.env.VERDICT_BENCH_TSX === "1") return false;
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const run = spawnSync(process.execPath, [tsc, "-p", join(here, "tsconfig.json")], { stdio: "inherit" });
  if (run.status === 0) return true;
  console.error("bench build failed: running the benches with tsx instead");
  return false;
}

// A word that matches no benchmark (a typo) is an error, not a run of less than was asked.
const unmatched = filters.filter((word) => !allBenches.some((name) => name.includes(word)));
if (unmatched.length > 0) {
  const names = allBenches.map((name) => name.replace(/\.bench\.ts$/, ""));
  console.error(`no benchmark matched ${unmatched.join(", ")}; the benchmarks: ${names.join(", ")}`);
  process.exit(2);
}
const built = benches.length > 0 && build();
let failed = 0;
for (const name of benches) {
  const compiled = join(compiledDir, name.replace(/\.ts$/, ".js"));
  const useCompiled = built && existsSync(compiled);
  console.log(`\n=== ${name} (${useCompiled ? "tsc-compiled, plain node" : "tsx"})`);
  const args = useCompiled ? ["--expose-gc", compiled] : ["--import", "tsx", "--expose-gc", join(here, name)];
  const run = spawnSync(process.execPath, args, { stdio: "inherit", cwd: root });
  if (run.status !== 0) {
    failed += 1;
    console.error(`${name} exited with ${run.status ?? run.signal}`);
  }
}
process.exit(failed === 0 ? 0 : 1);
