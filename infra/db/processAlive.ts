// Whether the process a lock file names still runs. A pid alone is not enough: after a crash or
// a reboot the system may have given it to another process, and a lock naming it was then held
// for good; the moment the process started (from /proc, where there is one) tells them apart.
// (embeddedHome.ts keeps its own copy of these for the home lock, from before this file.)
import { readFile } from "node:fs/promises";

/** Whether process `pid` runs and, where both are known, started when the lock says. */
export async function alive(pid: number, started: string | null): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as { code?: string }).code !== "EPERM") return false;
  }
  if (started === null) return true;
  const now = await startedAt(pid);
  return now === null || now === started;
}

/** When process `pid` started (field 22 of /proc/<pid>/stat: clock ticks since boot), or null. */
export async function startedAt(pid: number): Promise<string | null> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, "utf8");
    // Field 2, the command name, is in parentheses and may hold spaces: fields 3 on follow the last ")".
    return text.slice(text.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}
