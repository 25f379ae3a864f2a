// Where a command will write its output, checked before it does its work: a run of a few hundred
// pairs whose report then cannot be written (its directory missing) was work thrown away, with an
// ENOENT that named neither the flag nor the directory.
import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CliError } from "./errors.js";

export function checkOutputPath(command: string, flag: string, path: string | undefined): void {
  if (path === undefined) return;
  const dir = dirname(resolve(path));
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new CliError(`verdict ${command}: ${flag} ${path}: no directory ${dir} to write it in`);
  try {
    if (statSync(path).isDirectory()) throw new CliError(`verdict ${command}: ${flag} ${path} is a directory; name a file`);
  } catch (error) {
    if (error instanceof CliError) throw error;
  }
}
