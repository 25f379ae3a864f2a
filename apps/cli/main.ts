#!/usr/bin/env -S npx tsx
// `verdict` (`npm start` runs `verdict start` from a bundle of this file, scripts/start.mjs): see
// usage.ts for the commands and environment. From source, under tsx, commands that load the API
// re-run this file once with tsx reading apps/api/tsconfig.json, which turns on the
// experimentalDecorators type-graphql's resolvers need (tsx applies a tsconfig only to the files
// it includes, so it must be the API's own).
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { needsDecorators, runCli } from "./cli.js";
import { processIo } from "./io.js";

// Defined (true) by scripts/bundle.mjs: a bundle is compiled with the API's tsconfig already.
declare const VERDICT_BUNDLE: boolean | undefined;

function reRunWithDecorators(): boolean {
  if (typeof VERDICT_BUNDLE !== "undefined" || process.env.TSX_TSCONFIG_PATH || process.env.VITEST) return false;
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, TSX_TSCONFIG_PATH: join(dirname(fileURLToPath(import.meta.url)), "../api/tsconfig.json") },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return true;
}

// `verdict report ... | head` closes the pipe early; that is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

const argv = process.argv.slice(2);
if (!(needsDecorators(argv) && reRunWithDecorators())) {
  runCli(argv, processIo).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
