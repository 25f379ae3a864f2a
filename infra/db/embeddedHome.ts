// The embedded default's data directory (VERDICT_HOME, default ./.verdict) and the lock that
// keeps two processes off its PGlite databases (PGlite is one process's database): `verdict
// start` and the other CLI commands, and the projector app, all open the home through these.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

/** The home is locked by another live process. */
export class HomeInUseError extends Error {
  readonly code = "home_in_use";
}

export function verdictHome(env: NodeJS.ProcessEnv): string {
  return resolve(env.VERDICT_HOME?.trim() || ".verdict");
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/** Claims the home for this process; returns the release. A live owner is an error naming it. */
export async function lockHome(home: string): Promise<() => Promise<void>> {
  await mkdir(home, { recursive: true });
  const path = join(home, "verdict.pid");
  const owner = Number((await readFile(path, "utf8").catch(() => "")).trim());
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
    throw new HomeInUseError(
      `${home} is in use by another verdict process (pid ${owner}): the embedded databases take one process. ` +
        "Stop it (Ctrl-C), use its API, or set VERDICT_HOME to another directory.",
    );
  }
  await writeFile(path, `${process.pid}\n`);
  return async () => {
    const current = Number((await readFile(path, "utf8").catch(() => "")).trim());
    if (current === process.pid) await rm(path, { force: true });
  };
}
