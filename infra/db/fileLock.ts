// A lock file beside a file that several processes change by read-modify-write (the embedded
// home's api-keys.json: `verdict keys create` and `keys revoke` run while `verdict start` serves,
// so they cannot take the home's verdict.pid). Without it two writers each read the same file,
// add their change and rename their copy into place: the first one's change was lost, silently.
//
// The lock is created exclusively (`open(…, "wx")`: of claimers at once exactly one creates it)
// and holds one line: its holder as the home lock names its owner (homeLockOwner.ts: pid, start,
// PID namespace, host), then a token that makes each claim's line its own, so a release or a
// takeover removes only the claim it read. A claimer waits, with a short backoff, up to a bounded time. A lock whose
// holder is dead, or that is older than a bound no write comes near, is removed only by the
// holder of a second exclusive file, `<lock>.takeover`, which reads the lock again before removing
// it: two claimers that both found it stale cannot remove a claim made after it (as in
// embeddedHome.ts's home lock).
import { randomBytes } from "node:crypto";
import { open, readFile, rm, stat, type FileHandle } from "node:fs/promises";
import { describeOwner, formatOwner, mayRun, ownOwner, parseOwner, type Owner } from "./homeLockOwner.js";

/** How long a claimer waits for the lock before giving up: a write of a small file takes milliseconds. */
const LOCK_WAIT_MS = 5_000;
/**
 * A lock this old is abandoned whoever holds it (a holder whose pid the system reused, a claim
 * cut off before its line was written). Longer than the wait, so a lock that is held is waited
 * for and refused, never taken from a live holder that is merely slow.
 */
const LOCK_STALE_MS = 30_000;
/** A takeover file this old was left by a claimer that died in the milliseconds a takeover takes. */
const TAKEOVER_STALE_MS = 2_000;

/** The lock was held by another claim for the whole wait. */
export class FileLockTimeoutError extends Error {
  readonly code = "lock_timeout";
  constructor(
    readonly lockPath: string,
    /** The holder as a refusal names it (`pid 42`, or where it runs), or null when the lock named none (a claim being written). */
    readonly holder: string | null,
    readonly waitedMs: number,
  ) {
    super(`${lockPath}: held by ${holder ?? "another process"} for ${waitedMs} ms`);
  }
}

export interface FileLockOptions {
  waitMs?: number;
  staleMs?: number;
}

/** A lock file as read: its line, the owner it names (null: none), and when it was made. */
interface Claim {
  text: string;
  owner: Owner | null;
  mtimeMs: number;
}

/** Runs `work` holding the lock file `lockPath` (its directory must exist); released however `work` ends. */
export async function withFileLock<T>(lockPath: string, work: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const line = await claim(lockPath, options.waitMs ?? LOCK_WAIT_MS, options.staleMs ?? LOCK_STALE_MS);
  try {
    return await work();
  } finally {
    await removeIfOwn(lockPath, line);
  }
}

/** Creates the lock naming this process, waiting for a live holder and removing a stale one; returns its line. */
async function claim(lockPath: string, waitMs: number, staleMs: number): Promise<string> {
  const line = claimLine();
  const deadline = Date.now() + waitMs;
  for (let pass = 0; ; pass++) {
    if (await createExclusive(lockPath, line)) return line;
    const held = await readClaim(lockPath);
    if (held !== null && (await stale(held, staleMs))) {
      await removeIfStale(lockPath, held, staleMs);
      continue;
    }
    if (Date.now() >= deadline) throw new FileLockTimeoutError(lockPath, held?.owner ? describeOwner(held.owner) : null, waitMs);
    await pause(pass);
  }
}

/** This process's line for a new claim: a token of its own, so no two claims read the same. */
function claimLine(): string {
  return `${formatOwner(ownOwner()).trimEnd()} ${randomBytes(8).toString("hex")}\n`;
}

/** A backoff of 5 ms doubling to 100 ms, jittered so claimers that collided do not again. */
function pause(pass: number): Promise<void> {
  const ms = Math.min(5 * 2 ** pass, 100) * (0.5 + Math.random());
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Creates `path` holding `line`, unless it exists: true when this call created it. A write that
 * fails after the create (a full disk) removes the file it made: left empty, it would hold every
 * claimer off until it was old.
 */
async function createExclusive(path: string, line: string): Promise<boolean> {
  let file: FileHandle;
  try {
    file = await open(path, "wx");
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") return false;
    throw error;
  }
  try {
    await file.writeFile(line);
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
  await file.close();
  return true;
}

/** The lock file as it is now, or null when there is none. */
async function readClaim(path: string): Promise<Claim | null> {
  try {
    const [text, info] = await Promise.all([readFile(path, "utf8"), stat(path)]);
    // The token after the owner's fields is not the owner's: parseOwner reads the first four.
    return { text, owner: parseOwner(text), mtimeMs: info.mtimeMs };
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Abandoned: older than `staleMs`, or naming a process that no longer runs. A line not written
 * yet, or a holder in another container or on another machine (whose life this process cannot
 * see), is stale only once old.
 */
async function stale(held: Claim, staleMs: number): Promise<boolean> {
  if (Date.now() - held.mtimeMs > staleMs) return true;
  return held.owner !== null && !(await mayRun(held.owner));
}

/** Removes the lock if it is still the stale claim `seen`, holding the takeover file while it looks. */
async function removeIfStale(lockPath: string, seen: Claim, staleMs: number): Promise<void> {
  const takeover = `${lockPath}.takeover`;
  const line = claimLine();
  if (!(await createExclusive(takeover, line))) {
    const other = await readClaim(takeover);
    if (other !== null && (await stale(other, TAKEOVER_STALE_MS))) await removeIfOwn(takeover, other.text); // abandoned
    else await pause(0); // another claimer is at it
    return;
  }
  try {
    const now = await readClaim(lockPath);
    if (now !== null && now.text === seen.text && (await stale(now, staleMs))) await rm(lockPath, { force: true });
  } finally {
    await removeIfOwn(takeover, line);
  }
}

/** Removes `path` if it still holds `line`: a claim taken over as stale is not another's to remove. */
async function removeIfOwn(path: string, line: string): Promise<void> {
  if ((await readClaim(path))?.text === line) await rm(path, { force: true });
}
