// Who holds the embedded home's lock (`verdict.pid`), and whether this process can tell that
// owner still runs. A pid means something only in the PID namespace that gave it, on the machine
// that runs it: containers sharing a home volume (or `unshare --pid`) each number their own
// processes, and a home on a shared filesystem is seen from several machines. So the lock names,
// beside the pid and when that process started, its PID namespace and host: a process elsewhere
// cannot see the owner (kill(pid, 0) and /proc answer for its own processes) and must take the
// lock as held, never as stale (a namespaced command took a running server's lock, deleted it
// on exit, and the server's PGlite then overwrote a write acknowledged meanwhile).
//
// The line is `<pid> <started> <namespace> <host>`, `-` for what the writer could not read.
// Older builds wrote `<pid>` or `<pid> <started>`, and read only those first two fields: a field
// a lock lacks is not compared, so an older build's lock is judged as it was before.
import { readFileSync, readlinkSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { hostname } from "node:os";

/** A lock's owner: null where the file does not say (an older build's, or what its writer could not read). */
export interface Owner {
  pid: number;
  started: string | null;
  namespace: string | null;
  host: string | null;
}

/** Field 22 of a /proc stat line (clock ticks since boot when the process started), or null. */
function startField(stat: string): string | null {
  // Field 2, the command name, is in parentheses and may hold spaces: fields 3 on follow the last ")".
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
}

/**
 * Whether /proc numbers processes as this process does. Under `unshare --pid` without
 * --mount-proc it is the parent namespace's: /proc/<pid> is another process (pid 2, the lock's
 * owner here, was the host's kthreadd there), whose start told a live owner for a dead one.
 */
let procOurs: boolean | null = null;

function procNumbersAsWe(): boolean {
  procOurs ??= orNull(() => readlinkSync("/proc/self")) === String(process.pid);
  return procOurs;
}

/** When process `pid` (as this process numbers it) started, or null where /proc does not tell. */
async function startedAt(pid: number): Promise<string | null> {
  if (!procNumbersAsWe()) return null;
  return startField(await readFile(`/proc/${pid}/stat`, "utf8").catch(() => ""));
}

/** What `read` answers, or null where it throws (no /proc: another system, or a sandbox). */
function orNull(read: () => string): string | null {
  try {
    return read().trim().replace(/\s+/g, "_") || null; // a space would shift the line's fields
  } catch {
    return null;
  }
}

/** This process as a lock names it, read once (a claim's steps stay as quick as they were). */
let self: Owner | null = null;

export function ownOwner(): Owner {
  self ??= {
    pid: process.pid,
    // /proc/self, not /proc/<pid>: a /proc mounted for another namespace numbers this process otherwise.
    started: orNull(() => startField(readFileSync("/proc/self/stat", "utf8")) ?? ""),
    namespace: orNull(() => readlinkSync("/proc/self/ns/pid")),
    host: orNull(() => hostname()),
  };
  return self;
}

export function formatOwner(owner: Owner): string {
  return [owner.pid, owner.started ?? "-", owner.namespace ?? "-", owner.host ?? "-"].join(" ") + "\n";
}

/** The owner a lock file's text names, or null (no pid in it). */
export function parseOwner(text: string): Owner | null {
  const [pidText, started, namespace, host] = text.trim().split(" ").map((field) => (field === "-" ? "" : field));
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { pid, started: started || null, namespace: namespace || null, host: host || null };
}

/** Whether a field the lock names differs from this process's (one it does not name differs from none). */
function differs(locked: string | null, own: string | null): boolean {
  return locked !== null && locked !== own;
}

/** Whether `owner` is this process: the same pid, start, namespace and host, where the lock names them. */
export function isOwn(owner: Owner): boolean {
  const own = ownOwner();
  return owner.pid === own.pid && !differs(owner.started, own.started) && !elsewhere(owner);
}

/** Whether `owner` runs in another PID namespace or on another host: this process cannot see it. */
function elsewhere(owner: Owner): boolean {
  const own = ownOwner();
  return differs(owner.namespace, own.namespace) || differs(owner.host, own.host);
}

/**
 * Whether `owner` may still run: it is elsewhere (which this process cannot tell, so it may), or
 * its pid is alive and, where both are known, started when the file says.
 */
export async function mayRun(owner: Owner): Promise<boolean> {
  if (elsewhere(owner)) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as { code?: string }).code !== "EPERM") return false;
  }
  if (owner.started === null) return true;
  const started = await startedAt(owner.pid);
  return started === null || started === owner.started;
}

/** The owner as a refusal names it: `pid 42`, or with where it runs when that is elsewhere. */
export function describeOwner(owner: Owner): string {
  if (!elsewhere(owner)) return `pid ${owner.pid}`;
  const own = ownOwner();
  return (
    `pid ${owner.pid} in PID namespace ${owner.namespace ?? "unknown"} on host ${owner.host ?? "unknown"}; ` +
    `this process runs in ${own.namespace ?? "unknown"} on ${own.host ?? "unknown"} and cannot tell whether it still runs ` +
    `(another container, or another machine sharing this home)`
  );
}
