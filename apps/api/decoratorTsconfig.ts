// tsx reads the tsconfig of the working directory; the repository root's does not enable
// `experimentalDecorators`, which type-graphql's parameter decorators need. An entry point run
// from the root re-runs itself once with TSX_TSCONFIG_PATH pointing at apps/api/tsconfig.json.
// A bundle (scripts/bundle.mjs, which compiles with that tsconfig) needs no re-run.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

// Defined (true) by scripts/bundle.mjs.
declare const VERDICT_BUNDLE: boolean | undefined;

/** True when this process may load the resolvers; otherwise it has re-run itself and will exit with the child's code. */
export function ensureDecoratorTsconfig(): boolean {
  if (typeof VERDICT_BUNDLE !== "undefined" || process.env.TSX_TSCONFIG_PATH || process.env.VITEST) return true;
  const tsconfig = join(dirname(fileURLToPath(import.meta.url)), "tsconfig.json");
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return false;
}
