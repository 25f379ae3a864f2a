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
