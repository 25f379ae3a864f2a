// The embedded home's lock held from another PID namespace or host (containers sharing a home
// volume, `unshare --pid`, a home on a shared filesystem): this process cannot see that owner, so
// it refuses the home and leaves the lock alone. A namespaced command took a running server's
// lock as stale and deleted it on exit; a write acknowledged then was lost to the server's PGlite.
import { spawn, spawnSync } from "node:child_process";
import { readlinkSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockHome } from "./embeddedHome.js";

const HOME_MODULE = fileURLToPath(new URL("./embeddedHome.ts", import.meta.url));
const OTHER_NAMESPACE = "pid:[4026599999]";
let dir = "";
let started = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-lock-elsewhere-"));
  const stat = await readFile("/proc/self/stat", "utf8");
  started = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A home whose lock holds `content`, and the lock's path. */
async function homeLocked(name: string, content: string): Promise<{ home: string; lock: string }> {
  const home = join(dir, name);
  await mkdir(home, { recursive: true });
  await writeFile(join(home, "verdict.pid"), content);
  return { home, lock: join(home, "verdict.pid") };
}

/** A pid that no process holds here: a process that has exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" }).stdout.trim());
}

describe("lockHome and a lock written in another PID namespace or on another host", () => {
  it("takes over a dead owner's lock past a takeover file a claimer elsewhere left a minute ago, which blocked every start for good", async () => {
    const { home, lock } = await homeLocked("abandoned-takeover", `${deadPid()}\n`);
    const takeover = `${lock}.takeover`;
    await writeFile(takeover, `1 - ${OTHER_NAMESPACE} otherbox\n`);
    const longAgo = new Date(Date.now() - 60_000);
    await utimes(takeover, longAgo, longAgo);
    const release = await lockHome(home);
    expect((await readFile(lock, "utf8")).split(" ")[0]).toBe(String(process.pid));
    await release();
  });

  it("refuses a lock from another namespace, though its pid names no process here, and leaves it", async () => {
    const content = `${deadPid()} 123 ${OTHER_NAMESPACE} ${hostname()}\n`;
    const { home, lock } = await homeLocked("namespace", content);
    const refusal = lockHome(home);
    await expect(refusal).rejects.toMatchObject({ code: "home_in_use" });
    await expect(refusal).rejects.toThrow(`in PID namespace ${OTHER_NAMESPACE} on host ${hostname()}`);
    await expect(refusal).rejects.toThrow(`If no verdict process runs there, delete ${lock}.`);
    expect(await readFile(lock, "utf8")).toBe(content);
  });

  it("refuses a lock from another host in the same namespace, and leaves it", async () => {
    const content = `${deadPid()} 123 ${readlinkSync("/proc/self/ns/pid")} another-machine\n`;
    const { home, lock } = await homeLocked("host", content);
    await expect(lockHome(home)).rejects.toThrow("on host another-machine");
    expect(await readFile(lock, "utf8")).toBe(content);
  });

  it("does not take another namespace's lock naming this process's pid for its own (two containers' pid 1)", async () => {
    const content = `${process.pid} ${started} ${OTHER_NAMESPACE} ${hostname()}\n`;
    const { home, lock } = await homeLocked("same-pid", content);
    await expect(lockHome(home)).rejects.toThrow(`pid ${process.pid} in PID namespace ${OTHER_NAMESPACE}`);
    expect(await readFile(lock, "utf8")).toBe(content);
  });

  it("names this process's namespace and host in its lock, after the pid and start older builds read", async () => {
    const home = join(dir, "format");
    const release = await lockHome(home);
    expect(await readFile(join(home, "verdict.pid"), "utf8")).toBe(
      `${process.pid} ${started} ${readlinkSync("/proc/self/ns/pid")} ${hostname()}\n`,
    );
    await release();
  });

  it("releases only a lock that still names this process entirely, not one another namespace wrote since", async () => {
    const home = join(dir, "release");
    const release = await lockHome(home);
    const content = `${process.pid} ${started} ${OTHER_NAMESPACE} ${hostname()}\n`;
    await writeFile(join(home, "verdict.pid"), content);
    await release();
    expect(await readFile(join(home, "verdict.pid"), "utf8")).toBe(content);
  });

  it("still takes over a dead owner's lock from this namespace and host, in an older build's form or this one's", async () => {
    const here = `${readlinkSync("/proc/self/ns/pid")} ${hostname()}`;
    for (const [name, content] of [["old", `${deadPid()}\n`], ["new", `${deadPid()} 123 ${here}\n`], ["unread", `${deadPid()} - - -\n`]]) {
      const { home, lock } = await homeLocked(`dead-${name}`, content!);
      const release = await lockHome(home);
      expect((await readFile(lock, "utf8")).split(" ")[0]).toBe(String(process.pid));
      await release();
      expect(await readdir(home)).toEqual([]);
    }
  });
});

/** Whether this machine lets this user make a PID namespace (root, or unprivileged user namespaces). */
function unshareCommand(): string[] | null {
  for (const command of [["unshare", "--pid", "--fork", "--mount-proc"], ["unshare", "--user", "--map-root-user", "--pid", "--fork", "--mount-proc"]]) {
    if (spawnSync(command[0]!, [...command.slice(1), "true"]).status === 0) return command;
  }
  return null;
}

const UNSHARE = unshareCommand();

/** Runs `script` (given HOME_MODULE's lockHome) with `home` in a new PID namespace; resolves its output once it prints `until`. */
function namespaced(script: string, home: string, until: string, unshare = UNSHARE!) {
  const child = spawn(unshare[0]!, [...unshare.slice(1), process.execPath, "--import", "tsx", "--input-type=module", "-e", script, home], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  const printed = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk) => (out += chunk).includes(until) && resolve(out));
    child.on("exit", () => resolve(out));
    child.on("error", reject);
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return { child, printed, exited };
}

const IMPORT = `const { lockHome } = await import(${JSON.stringify(HOME_MODULE)}); const home = process.argv.at(-1);`;
const CLAIM_ONCE = `${IMPORT} try { await (await lockHome(home))(); console.log("got"); } catch (e) { console.log(e.code === "home_in_use" ? "refused" : String(e)); }`;
// Holds the home as pid 1, and has a child process of its namespace claim it too.
const HOLD_AND_CLAIM = `${IMPORT} const release = await lockHome(home); const { execFileSync } = await import("node:child_process");
  console.log(execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", ${JSON.stringify(CLAIM_ONCE)}, home], { encoding: "utf8" }).trim()); await release();`;
const HOLD = `${IMPORT} const release = await lockHome(home); console.log("held"); process.stdin.on("end", async () => { await release(); process.exit(0); }); process.stdin.resume();`;

// Making a PID namespace takes root or unprivileged user namespaces, which some CI runners lack.
describe.skipIf(UNSHARE === null)("lockHome across real PID namespaces (unshare)", () => {
  it("refuses a namespaced command while this process holds the home, and keeps the lock", async () => {
    const home = join(dir, "real-host-holds");
    const release = await lockHome(home);
    const lock = await readFile(join(home, "verdict.pid"), "utf8");
    const claim = namespaced(CLAIM_ONCE, home, "\n");
    expect((await claim.printed).trim()).toBe("refused");
    await claim.exited;
    expect(await readFile(join(home, "verdict.pid"), "utf8")).toBe(lock);
    await release();
  }, 30_000);

  it("refuses a second namespaced command (pid 1 like its holder's) while a namespaced process holds the home", async () => {
    const home = join(dir, "real-both-pid-1");
    const holder = namespaced(HOLD, home, "held");
    expect((await holder.printed).trim()).toBe("held");
    const lock = await readFile(join(home, "verdict.pid"), "utf8");
    expect(lock.split(" ")[0]).toBe("1");
    const claim = namespaced(CLAIM_ONCE, home, "\n");
    expect((await claim.printed).trim()).toBe("refused");
    await claim.exited;
    expect(await readFile(join(home, "verdict.pid"), "utf8")).toBe(lock);
    await expect(lockHome(home)).rejects.toThrow("in PID namespace");
    holder.child.stdin.end();
    await holder.exited;
    expect(await readdir(home)).toEqual([]);
  }, 30_000);

  it("refuses a second process of the holder's namespace when /proc is the host's (no --mount-proc), where /proc/1 is another process", async () => {
    const home = join(dir, "real-host-proc");
    const run = namespaced(HOLD_AND_CLAIM, home, "\n", UNSHARE!.filter((arg) => arg !== "--mount-proc"));
    expect((await run.printed).trim()).toBe("refused");
    await run.exited;
    expect(await readdir(home)).toEqual([]);
  }, 30_000);
});
