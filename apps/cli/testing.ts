// Shared by the CLI's tests: the shipped example's files, a `verdict run` on it, and the CLI run
// in-process with its exit code and output captured.
import { fileURLToPath } from "node:url";
import { runCli } from "./cli.js";
import { bufferIo } from "./io.js";

export const example = (name: string): string => fileURLToPath(new URL(`../../examples/support/${name}`, import.meta.url));

/** `verdict run` on examples/support's smoke set with one model, plus `extra` flags. */
export const exampleRun = (...extra: string[]): string[] =>
  ["run", "--catalog", example("catalog.yaml"), "--product", "support", "--set", "smoke", "--models", "gpt-5-mini", "--agent", `scripted:${example("agent.yaml")}`, "--quiet", ...extra];

export async function cli(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stderr: string; stdout: string }> {
  const io = bufferIo();
  const code = await runCli(argv, io, env);
  return { code, stderr: io.stderr.join(""), stdout: io.stdout.join("") };
}

/**
 * The environment for the CLI run as a user runs it, on plain node in a process of its own: this
 * one's, without what vitest and tsx set for themselves (a child given NODE_OPTIONS or VITEST_*
 * would load their hooks), with `extra` on top.
 */
export function plainNodeEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of Object.keys(env)) if (name.startsWith("VITEST") || name === "TSX_TSCONFIG_PATH" || name === "NODE_OPTIONS") delete env[name];
  return env;
}
