// The embedded default's data directory (VERDICT_HOME, default ./.verdict) and the lock that
// keeps two processes off its PGlite databases (PGlite is one process's database): `verdict
// start` and the other CLI commands, and the projector app, all open the home through these.
//
// The lock is `verdict.pid`, created exclusively (a hard link of a file already holding the pid,
// so it is never seen empty): of processes claiming at once exactly one creates it. A pid file
// whose process died is replaced only by the holder of a second exclusive file,
// `verdict.pid.takeover`, which checks the owner again before removing it: two claimers that both
// found it stale cannot both replace it. (A takeover file whose holder died, in the milliseconds
// a takeover takes, is removed by the next claimer; two claimers doing that at the same instant
// is the one case left unguarded.) The file names its owner by pid and, where /proc tells, the
// moment that process started: a pid the system gave to another process since (after a crash or
// a reboot) is then not taken for the owner, which had locked the home for good. It also names
// the owner's PID namespace and host, and a lock from elsewhere is never taken as stale
// (homeLockOwner.ts).
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { link, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { describeOwner, formatOwner, isOwn, mayRun, type Owner, ownOwner, parseOwner } from "./homeLockOwner.js";

/** The home is locked by another live process. */
export class HomeInUseError extends Error {
  readonly code = "home_in_use";
}

export function verdictHome(env: NodeJS.ProcessEnv): string {
  return resolve(env.VERDICT_HOME?.trim() || ".verdict");
}

/**
 * Why `home` cannot be the embedded home, or null when it can: it must be a directory, or nothing
 * yet (it is created). A file there gave mkdir's EEXIST, or ENOTDIR when a file stood in its path,
 * naming no variable. `variable` is how the caller names the setting.
 */
export function homeProblem(home: string, variable: string): string | null {
  const advice = "set VERDICT_HOME to a directory (one that does not exist yet is created)";
  try {
    if (statSync(home).isDirectory()) return null;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT") return null;
    if (code === "ENOTDIR") return `${variable} ${home}: a part of that path is a file, not a directory; ${advice}`;
    return `${variable} ${home}: cannot be used (${code ?? (error as Error).message}); ${advice}`;
  }
  return `${variable} ${home} is a file, not a directory; ${advice}`;
}

/** How a process names the home's setting in its errors: set, or its default. */
export function homeVariable(env: NodeJS.ProcessEnv): string {
  return env.VERDICT_HOME?.trim() ? "VERDICT_HOME" : "VERDICT_HOME (unset: ./.verdict)";
}

/** The owner a lock file names, or null (no file, or no pid in it). */
async function ownerOf(path: string): Promise<Owner | null> {
  return parseOwner(await readFile(path, "utf8").catch(() => ""));
}

/** Creates `path` naming this process, unless it exists: true when this call created it. */
async function createExclusive(path: string): Promise<boolean> {
  // Not named by pid alone: processes in two containers can share a pid (both 1) and this file.
  const aside = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(aside, formatOwner(ownOwner()));
  try {
    await link(aside, path);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") return false;
    throw error;
  } finally {
    await rm(aside, { force: true });
  }
}

/**
 * A takeover file this old was left by a claimer that died in the milliseconds a takeover takes:
 * whoever it names, even a process elsewhere (another container or machine) whose life this one
 * cannot see, which would otherwise block every start here for good.
 */
const TAKEOVER_STALE_MS = 2_000;

/** Removes the pid file if its owner is dead, holding the takeover file while it looks. */
async function removeIfStale(path: string): Promise<void> {
  const takeover = `${path}.takeover`;
  if (!(await createExclusive(takeover))) {
    if (await abandoned(takeover)) await rm(takeover, { force: true });
    else await new Promise((resolve) => setTimeout(resolve, 10)); // another claimer is at it (or just done)
    return;
  }
  try {
    const text = await readFile(path, "utf8").catch((error: { code?: string }) => (error.code === "ENOENT" ? null : ""));
    // Gone already: nothing to remove, and another claimer may be creating it this moment.
    if (text === null) return;
    const owner = parseOwner(text);
    if (owner === null || (!isOwn(owner) && !(await mayRun(owner)))) await rm(path, { force: true });
  } finally {
    await rm(takeover, { force: true });
  }
}

/** A takeover file whose claimer is dead, or that is older than any takeover takes. */
async function abandoned(takeover: string): Promise<boolean> {
  const holder = await ownerOf(takeover);
  if (holder !== null && !(await mayRun(holder))) return true;
  const made = await stat(takeover).catch(() => null);
  return made !== null && Date.now() - made.mtimeMs > TAKEOVER_STALE_MS;
}

function inUse(home: string, owner: Owner, path: string): HomeInUseError {
  return new HomeInUseError(
    `${home} is in use by another verdict process (${describeOwner(owner)}): the embedded databases take one process. ` +
      `Stop it (Ctrl-C), use its API, or set VERDICT_HOME to another directory. If no verdict process runs there, delete ${path}.`,
  );
}

/**
 * What a process says when it created the home it was given, so a mistyped VERDICT_HOME is seen
 * rather than worked on as a new, empty home: `projector: VERDICT_HOME /tmp/typo did not exist:
 * created a new, empty home` (`who` the process; with VERDICT_HOME unset, the default's path).
 */
export function homeCreatedLine(who: string, home: string, env: NodeJS.ProcessEnv): string {
  return `${who}: ${homeNamed(home, env)} did not exist: created a new, empty home`;
}

/** The home as a message names it: `VERDICT_HOME /x`, or `/cwd/.verdict (VERDICT_HOME unset: ./.verdict)`. */
export function homeNamed(home: string, env: NodeJS.ProcessEnv): string {
  return env.VERDICT_HOME?.trim() ? `VERDICT_HOME ${home}` : `${home} (VERDICT_HOME unset: ./.verdict)`;
}

/**
 * Claims the home for this process, creating it when it does not exist (then `onCreated` is
 * called, before the lock is taken); returns the release. A live owner is an error naming it.
 */
export async function lockHome(home: string, options: { onCreated?: () => void } = {}): Promise<() => Promise<void>> {
  // mkdir answers the first directory it created: undefined when the home was there.
  if ((await mkdir(home, { recursive: true })) !== undefined) options.onCreated?.();
  const path = join(home, "verdict.pid");
  const release = async () => {
    // Only while the file still names this process (its pid alone is another namespace's pid too).
    const owner = await ownerOf(path);
    if (owner !== null && isOwn(owner)) await rm(path, { force: true });
  };
  // Each pass either creates the file, finds it held, or removes a dead owner's and tries again.
  for (let pass = 0; pass < 1000; pass++) {
    if (await createExclusive(path)) return release;
    const owner = await ownerOf(path);
    if (owner !== null && isOwn(owner)) return release; // this process holds it already
    if (owner !== null && (await mayRun(owner))) throw inUse(home, owner, path);
    await removeIfStale(path);
  }
  throw new Error(`could not claim ${home}: ${path} (or ${path}.takeover) kept changing; is another verdict process starting?`);
}
