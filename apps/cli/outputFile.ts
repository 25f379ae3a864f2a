// Where a command will write its output, checked before it does its work: a run of a few hundred
// pairs whose report then cannot be written (its directory missing, or one this user cannot
// write in) was work thrown away, with an error that named neither the flag nor the directory.
import { accessSync, closeSync, constants, createWriteStream, lstatSync, openSync, readlinkSync, realpathSync, rmSync, statSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { CliError, EXIT } from "./errors.js";

/** Throws the errno error when this process cannot write `path` (a directory: create a file in it). */
type WriteCheck = (path: string, directory: boolean) => void;

/**
 * The default check: W_OK, then, for a directory, a file created and removed in it, since root
 * passes W_OK where no file can be created (/proc, a read-only mount).
 */
const canWrite: WriteCheck = (path, directory) => {
  accessSync(path, constants.W_OK);
  if (!directory) return;
  const probe = join(path, `.verdict-write-check.${process.pid}`);
  closeSync(openSync(probe, "wx"));
  rmSync(probe, { force: true });
};

export function checkOutputPath(command: string, flag: string, path: string | undefined, check: WriteCheck = canWrite): void {
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
  // Where the write will happen: beside the file it replaces, or a device or pipe as it is.
  const target = renameTarget(path);
  const where = target === null ? path : dirname(target);
  try {
    check(where, target !== null);
  } catch (error) {
    const cannot = target === null ? `cannot write to it` : `cannot write a file in ${where}`;
    throw new CliError(`verdict ${command}: ${flag} ${path}: ${cannot} (${errorText(error)})`);
  }
}

/**
 * writeOutput for a command's flag: a failure names the flag and the path the user gave (not the
 * temporary file beside it) and exits 1, as the work was done but its output was not written.
 */
export async function writeOutputFor(command: string, flag: string, path: string, text: string): Promise<void> {
  try {
    await writeOutput(path, text);
  } catch (error) {
    throw new CliError(`verdict ${command}: ${flag} ${path}: could not write it (${errorText(error)})`, EXIT.failed);
  }
}

/** "EACCES: permission denied", without the syscall and path node appends (a temporary file's). */
export function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/, \w+(?: '[^']*')*$/, "");
}

/**
 * Writes a command's output file whole or not at all: aside, then renamed over the target, so an
 * interrupted or failed write (a full disk, a kill) never leaves half a report where the last one
 * was. `write` is the file writer (tests make it fail halfway).
 */
export async function writeOutput(path: string, text: string, write: (path: string, text: string) => Promise<void> = (p, t) => writeFile(p, t)): Promise<void> {
  // One of this process's own descriptors (`--out /dev/stdout >> ci.log`, `> ci.log 2>&1`): the
  // shell opened it, so the report is written through that very descriptor, at the position it
  // shares with stderr. Renamed over, the log lost what it held; reopened by its path, the
  // report kept a position of its own and the next stderr line overwrote its start.
  const descriptor = ownDescriptor(path);
  if (descriptor !== null) return writeToDescriptor(descriptor, text);
  const target = renameTarget(path);
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
 * Synchronous: checkOutputPath asks it too, before any work.
 */
function renameTarget(path: string): string | null {
  let found;
  try {
    found = lstatSync(path);
  } catch {
    return path;
  }
  if (found.isFile()) return path;
  if (!found.isSymbolicLink()) return null;
  try {
    const real = realpathSync(path);
    return statSync(real).isFile() ? real : null;
  } catch {
    return danglingLink(path) ? path : null;
  }
}

/**
 * The number of this process's descriptor that `path`, or a link on its way, names (/dev/fd/N,
 * /proc/self/fd/N, /dev/stdout as a link to one); null for any other path.
 */
function ownDescriptor(path: string): number | null {
  let current = resolve(path);
  // Bounded as the kernel bounds a chain of links (40).
  for (let hop = 0; hop < 40; hop += 1) {
    const named = DESCRIPTOR.exec(current);
    if (named) return named[2] === undefined || named[2] === "self" || named[2] === "thread-self" || Number(named[2]) === process.pid ? Number(named[3]) : null;
    try {
      current = resolve(dirname(current), readlinkSync(current));
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * `text` written through descriptor `fd`: stdout and stderr through their streams (which wait
 * on a full pipe; a bare write to a non-blocking one fails with EAGAIN), another through a stream
 * of its own that leaves the descriptor open.
 */
function writeToDescriptor(fd: number, text: string): Promise<void> {
  const stream = fd === 1 ? process.stdout : fd === 2 ? process.stderr : createWriteStream("", { fd, autoClose: false });
  return new Promise((done, fail) => {
    stream.write(text, (error) => (error ? fail(error) : done()));
  });
}

const DESCRIPTOR = /^\/(dev\/fd|proc\/(self|thread-self|\d+)\/fd)\/(\d+)$/;

/**
 * Whether a link realpath could not follow leads nowhere: replaced then, as a missing file would
 * be created. A link to something with no path (/dev/stdout to a pipe or socket, /proc/self/fd/1)
 * fails realpath too, yet stat reaches it: it was taken for dangling and renamed over, which made
 * /dev/stdout a regular file and left the report in it, unread.
 */
function danglingLink(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}
