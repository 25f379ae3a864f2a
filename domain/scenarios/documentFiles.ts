// Reading the files a caller names (the only I/O the core does): missing files are skipped,
// as Suite.load and Catalog.load layer whichever of the named files exist.
import { isUtf8 } from "node:buffer";
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, statSync, type Stats } from "node:fs";
import { basename } from "node:path";
import { InvalidDocument } from "./errors.js";
import { documentOverLimit, documentTooLarge, MAX_DOCUMENT_BYTES } from "./limits.js";

interface DocumentFile {
  path: string;
  text: string;
}

/** The files that exist, read; one over the document limit is refused unread (a 600 MB file took 1.2 GB). */
export function readExisting(paths: string[]): DocumentFile[] {
  return paths.filter((path) => existsSync(path)).map((path) => ({ path, text: readDocument(path) }));
}

function readDocument(path: string): string {
  let read: BoundedText;
  try {
    const { size } = statSync(path);
    if (size > MAX_DOCUMENT_BYTES) throw new InvalidDocument(documentTooLarge(size), { source: path });
    // A pipe or a device says size 0 whatever it holds (`/dev/zero` was read until memory ran
    // out), and a file may grow after stat: read one byte past the limit, no more.
    read = readUtf8AtMost(path, MAX_DOCUMENT_BYTES);
  } catch (error) {
    // A bare `EISDIR: illegal operation on a directory, read` named no file.
    if (error instanceof InvalidDocument) throw error;
    throw new InvalidDocument(cannotReadRule(error), { source: path });
  }
  if ("overLimit" in read) throw new InvalidDocument(documentOverLimit(), { source: path });
  if ("notUtf8" in read) throw new InvalidDocument(notUtf8Rule(read.notUtf8), { source: path, line: read.notUtf8.line });
  return read.text;
}

/**
 * Why a file could not be read, in the words every file a command reads uses:
 * `cannot be read (EACCES: permission denied)`, without the syscall and path Node appends.
 */
export function cannotReadRule(error: unknown): string {
  if (error instanceof NotRegularFile) return "not a regular file";
  if ((error as NodeJS.ErrnoException | null)?.code === "EISDIR") return "cannot be read: it is a directory, not a file";
  return `cannot be read (${(error instanceof Error ? error.message : String(error)).replace(/, \w+(?: '[^']*')*$/, "")})`;
}

/** A file's text read as input files are: its UTF-8 text, or why not (past `limit` bytes, or not UTF-8). */
export type BoundedText = { text: string } | { overLimit: true } | { notUtf8: NotUtf8 };

/** At most `limit` bytes of a file (one more is read to tell a longer one), checked to be UTF-8. */
export function readUtf8AtMost(path: string, limit: number): BoundedText {
  const bytes = readAtMost(path, limit + 1);
  if (bytes.length > limit) return { overLimit: true };
  const bad = notUtf8At(bytes);
  return bad === null ? { text: bytes.toString("utf8") } : { notUtf8: bad };
}

/** Where a byte that is not UTF-8 is: its offset in the bytes and its 1-based line. */
export interface NotUtf8 {
  offset: number;
  line: number;
}

/**
 * The first byte that is not part of UTF-8 text, or null when the bytes are UTF-8. Decoded
 * leniently, such a byte became U+FFFD and the file's text changed without a word (a Latin-1
 * `café` was stored as `caf�`). A Uint8Array (a Buffer is one), so that the packed library's
 * declarations need no @types/node.
 */
export function notUtf8At(bytes: Uint8Array): NotUtf8 | null {
  if (isUtf8(bytes)) return null;
  // The longest valid prefix: each step checks a prefix that ends on a character boundary.
  let offset = 0;
  while (offset < bytes.length) {
    const lead = bytes[offset];
    const size = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
    if (size === 0 || !isUtf8(bytes.subarray(offset, offset + size))) break;
    offset += size;
  }
  let line = 1;
  for (let i = 0; i < offset; i += 1) if (bytes[i] === 0x0a) line += 1;
  return { offset, line };
}

export function notUtf8Rule(bad: NotUtf8): string {
  return `not UTF-8 text: the byte at offset ${bad.offset} is not valid UTF-8 (save the file as UTF-8)`;
}

/**
 * A path refused before it is opened: a named pipe (opening one waits for a writer, forever when
 * there is none: `mkfifo f; verdict catalogs import f` hung) or a socket. A device is read, and
 * its reading stops at the limit as a file's does (`/dev/zero` is refused as too large).
 */
export class NotRegularFile extends Error {
  readonly code = "ENOTREG";

  constructor(readonly path: string) {
    super(`${path} is not a regular file`);
    this.name = "NotRegularFile";
  }
}

/**
 * The first `limit` bytes of a file, or all of it when shorter: a bounded read of any path
 * (throws NotRegularFile for a named pipe or a socket, unopened).
 */
function readAtMost(path: string, limit: number): Buffer {
  // A socket cannot be opened at all (ENXIO): refused by its kind first.
  if (isPipeOrSocket(statSync(path))) throw new NotRegularFile(path);
  // Non-blocking, and checked again once open: a pipe swapped in after the stat opens at once
  // instead of waiting for a writer, and is refused.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (isPipeOrSocket(fstatSync(fd))) throw new NotRegularFile(path);
    // Not zero-filled: only the bytes read are returned.
    const buffer = Buffer.allocUnsafe(limit);
    let length = 0;
    while (length < limit) {
      const read = readSync(fd, buffer, length, limit - length, null);
      if (read === 0) break;
      length += read;
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

function isPipeOrSocket(kind: Stats): boolean {
  return kind.isFIFO() || kind.isSocket();
}

/** `File.basename(path, ".yml")`, also for `.yaml`. */
export function documentName(path: string): string {
  return basename(path).replace(/\.ya?ml$/, "");
}

/** Splits `(...paths, { name })` call arguments. */
export function splitArgs<T extends object>(args: Array<string | T>): { paths: string[]; options: Partial<T> } {
  const last = args[args.length - 1];
  if (last !== undefined && typeof last === "object") return { paths: args.slice(0, -1) as string[], options: last };
  return { paths: args as string[], options: {} };
}
