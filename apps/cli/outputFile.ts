// Where a command will write its output, checked before it does its work: a run of a few hundred
// pairs whose report then cannot be written (its directory missing) was work thrown away, with an
// ENOENT that named neither the flag nor the directory.
import { statSync } from "node:fs";
import { lstat, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
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

/**
 * Writes a command's output file whole or not at all: aside, then renamed over the target, so an
 * interrupted or failed write (a full disk, a kill) never leaves half a report where the last one
 * was. `write` is the file writer (tests make it fail halfway).
 */
export async function writeOutput(path: string, text: string, write: (path: string, text: string) => Promise<void> = (p, t) => writeFile(p, t)): Promise<void> {
  const target = await renameTarget(path);
  // Not a file a rename can replace (/dev/stdout, a pipe): written to as it is.
  if (target === null) return write(path, text);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    await write(temporary, text);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * The file to replace: the path itself when it is a regular file or nothing yet, the file a
 * symlink points to (replacing the link would leave its target stale), or null for anything else.
 */
async function renameTarget(path: string): Promise<string | null> {
  const found = await lstat(path).catch(() => null);
  if (found === null || found.isFile()) return path;
  if (!found.isSymbolicLink()) return null;
  const real = await realpath(path).catch(() => null);
  if (real === null) return path; // a dangling link: replaced, as a missing file would be created
  return (await stat(real)).isFile() ? real : null;
}
