// The embedded home's lock when several processes claim it at the same moment: exactly one gets
// it, whether the home was free or held by a process that died (its stale verdict.pid). A read,
// liveness check, then write let two processes both get it (2 of 5 trials in the review).
import { spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockHome } from "./embeddedHome.js";

const HOME_MODULE = fileURLToPath(new URL("./embeddedHome.ts", import.meta.url));
const CLAIMERS = 6;
let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-lock-"));
  // Says "ready" once loaded, claims when told "go", says whether it got the home, and holds it
  // until its stdin ends (once every claimer has answered), then releases it.
  await writeFile(join(dir, "claim.mjs"), `
    import { createInterface } from "node:readline";
    const { lockHome } = await import(${JSON.stringify(HOME_MODULE)});
    const input = createInterface({ input: process.stdin });
    const lines = input[Symbol.asyncIterator]();
    console.log("ready");
    await lines.next();
    let release = null;
    try { release = await lockHome(process.argv[2]); console.log("got"); }
    catch (error) { console.log(error.code === "home_in_use" ? "refused" : String(error)); }
    await lines.next();
    await release?.();
    input.close();
  `);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A claimer process and the lines it has printed. */
function claimer(home: string) {
  const child = spawn(process.execPath, ["--import", "tsx", join(dir, "claim.mjs"), home], { stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  const lines = () => out.split("\n").map((line) => line.trim()).filter(Boolean);
  const exited = new Promise<void>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", () => resolve());
  });
  const changed: Array<() => void> = [];
  child.stdout.on("data", (chunk) => {
    out += chunk;
    for (const check of changed.splice(0)) check();
  });
  /** Resolves once it has printed `count` lines; rejects if it exits first. */
  const printed = (count: number) => new Promise<void>((resolve, reject) => {
    const check = () => (lines().length >= count ? resolve() : void changed.push(check));
    check();
    void exited.then(() => (lines().length >= count ? resolve() : reject(new Error(`a claimer exited having printed: ${out}`))));
  });
  return { child, lines, printed, exited };
}

/**
 * Every claimer is loaded before any claims (a fixed moment let a claimer still loading tsx
 * claim after the winner had released), and the winner holds the home until all have answered.
 */
async function race(home: string): Promise<string[]> {
  const claimers = Array.from({ length: CLAIMERS }, () => claimer(home));
  await Promise.all(claimers.map((c) => c.printed(1)));
  for (const c of claimers) c.child.stdin.write("go\n");
  await Promise.all(claimers.map((c) => c.printed(2)));
  for (const c of claimers) c.child.stdin.end();
  await Promise.all(claimers.map((c) => c.exited));
  return claimers.map((c) => c.lines()[1]).sort();
}

const ONE_WINNER = ["got", ...Array.from({ length: CLAIMERS - 1 }, () => "refused")];

describe("lockHome claimed by several processes at once", () => {
  it("gives a free home to exactly one", async () => {
    expect(await race(join(dir, "free"))).toEqual(ONE_WINNER);
  }, 30_000);

  it("gives a home whose owner died to exactly one, replacing the stale pid", async () => {
    const home = join(dir, "stale");
    const dead = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" }).stdout.trim();
    await mkdir(home, { recursive: true });
    await writeFile(join(home, "verdict.pid"), `${dead}\n`);
    expect(await race(home)).toEqual(ONE_WINNER);
    // The winner released it, and no claimer left a file of its own behind.
    expect(await readFile(join(home, "verdict.pid"), "utf8").catch(() => "released")).toBe("released");
    expect(await readdir(home)).toEqual([]);
  }, 30_000);
});

describe("lockHome and a pid the system gave to another process", () => {
  it("takes a home whose lock names a live pid that started at another moment than its owner (after a crash or a reboot)", async () => {
    const home = join(dir, "reused");
    await mkdir(home, { recursive: true });
    // pid 1 is alive, but did not start at that tick: the lock's owner is gone and its pid reused.
    await writeFile(join(home, "verdict.pid"), "1 99999999999\n");
    const release = await lockHome(home);
    expect((await readFile(join(home, "verdict.pid"), "utf8")).split(" ")[0]).toBe(String(process.pid));
    await release();
    expect(await readdir(home)).toEqual([]);
  });

  it("still refuses a live owner, naming the file to delete if no verdict process runs there", async () => {
    const home = join(dir, "held");
    await mkdir(home, { recursive: true });
    // Our parent (the test runner) stands for a verdict process that holds the home: named by
    // its pid alone (a file from before locks named their start), or with when it started.
    const stat = await readFile(`/proc/${process.ppid}/stat`, "utf8");
    const started = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    for (const content of [`${process.ppid}\n`, `${process.ppid} ${started}\n`]) {
      await writeFile(join(home, "verdict.pid"), content);
      await expect(lockHome(home)).rejects.toThrow(`is in use by another verdict process (pid ${process.ppid})`);
      await expect(lockHome(home)).rejects.toThrow(`If no verdict process runs there, delete ${join(home, "verdict.pid")}.`);
    }
  });
});
