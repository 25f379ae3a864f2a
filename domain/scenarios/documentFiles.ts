// Reading the files a caller names (the only I/O the core does): missing files are skipped,
// as Suite.load and Catalog.load layer whichever of the named files exist.
import { existsSync, readFileSync } from "node:fs";
import { basename } from "node:path";

export interface DocumentFile {
  path: string;
  text: string;
}

export function readExisting(paths: string[]): DocumentFile[] {
  return paths.filter((path) => existsSync(path)).map((path) => ({ path, text: readFileSync(path, "utf8") }));
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
