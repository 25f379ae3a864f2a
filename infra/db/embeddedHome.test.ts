// The embedded home's lock when several processes claim it at the same moment: exactly one gets
// it, whether the home was free or held by a process that died (its stale verdict.pid). A read,
// liveness check, then write let two processes both get it (2 of 5 trials in the review).
import { spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const HOME_MODULE = fileURLToPath(new URL("./embeddedHome.ts", import.meta.url));
const CLAIMERS = 6;
let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-lock-"));
  // Waits for a shared moment, claims, says whether it got the home, holds it a while.
  await writeFile(join(dir, "claim.mjs"), `
    const { lockHome } = await import(${JSON.stringify(HOME_MODULE)});
    const at = Number(process.argv[2]);
    while (Date.now() < at) {}
    try { const release = await lockHome(process.argv[3]); console.log("got"); await new Promise((r) => setTimeout(r, 1500)); await release(); }
    catch (error) { console.log(error.code === "home_in_use" ? "refused" : String(error)); }
  `);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function race(home: string): Promise<string[]> {
  const at = String(Date.now() + 2500); // once every claimer has loaded
  const claimers = Array.from({ length: CLAIMERS }, () => new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(dir, "claim.mjs"), at, home], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("exit", () => resolve(out.trim()));
  }));
  return (await Promise.all(claimers)).sort();
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
