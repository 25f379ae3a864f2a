// The lock beside a file changed by read-modify-write: a claim of a dead process, or one too old
// to be a live write, is taken over (else one crash blocked every later `verdict keys` command);
// a live claim is waited for, then refused naming the lock, never written over.
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileLockTimeoutError, withFileLock } from "./fileLock.js";
import { formatOwner, ownOwner } from "./homeLockOwner.js";

let dir = "";
let lock = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-file-lock-"));
  lock = join(dir, "keys.json.lock");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A claim of this (live) process, as another claim in it would write it. */
const ownClaim = () => `${formatOwner(ownOwner()).trimEnd()} abcdef\n`;

describe("withFileLock", () => {
  it("holds the lock while the work runs, naming this process, and removes it after", async () => {
    const during = await withFileLock(lock, () => readFile(lock, "utf8"));
    expect(during.split(" ")[0]).toBe(String(process.pid));
    expect(await readdir(dir)).toEqual([]);
  });

  it("takes over a lock whose process died, at once", async () => {
    const dead = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" }).stdout.trim();
    await writeFile(lock, `${dead} - - - abcdef\n`);
    const started = Date.now();
    expect(await withFileLock(lock, async () => "ran", { waitMs: 2_000 })).toBe("ran");
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await readdir(dir)).toEqual([]);
  });

  it("takes over a lock whose live pid started at another moment (the pid was reused)", async () => {
    await writeFile(lock, `${process.pid} 1 - - abcdef\n`);
    expect(await withFileLock(lock, async () => "ran", { waitMs: 500 })).toBe("ran");
  });

  it("takes over a lock older than the stale bound, whoever it names", async () => {
    await writeFile(lock, ownClaim());
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    expect(await withFileLock(lock, async () => "ran", { waitMs: 500, staleMs: 30_000 })).toBe("ran");
  });

  it("waits for a live holder, then refuses naming the lock and its holder, leaving the lock as it was", async () => {
    const held = ownClaim();
    await writeFile(lock, held);
    let ran = false;
    const claim = withFileLock(lock, async () => (ran = true), { waitMs: 300 });
    await expect(claim).rejects.toBeInstanceOf(FileLockTimeoutError);
    await expect(claim).rejects.toMatchObject({ lockPath: lock, holder: `pid ${process.pid}`, waitedMs: 300 });
    expect(ran).toBe(false);
    expect(await readFile(lock, "utf8")).toBe(held);
  });

  it("waits for a holder in another PID namespace (whose life it cannot see) rather than take its lock as stale", async () => {
    const elsewhere = `${process.pid} - pid:[1] other-host abcdef\n`;
    await writeFile(lock, elsewhere);
    await expect(withFileLock(lock, async () => "ran", { waitMs: 200 })).rejects.toMatchObject({ holder: expect.stringContaining("on host other-host") });
    expect(await readFile(lock, "utf8")).toBe(elsewhere);
  });

  it("runs claims of one process one at a time, and releases when the work throws", async () => {
    let inside = 0;
    let most = 0;
    const work = async () => {
      most = Math.max(most, ++inside);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inside--;
    };
    await Promise.all(Array.from({ length: 10 }, () => withFileLock(lock, work)));
    expect(most).toBe(1);
    await expect(withFileLock(lock, async () => { throw new Error("boom"); })).rejects.toThrow("boom");
    expect(await readdir(dir)).toEqual([]);
  });
});
