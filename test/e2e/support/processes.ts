// The apps as their own operating-system processes, started the way a deployment starts them
// (`node --import tsx apps/<app>/main.ts`, no npm/npx wrapper, so the pid we hold is the app's and
// kill -9 reaches it). Output is kept so a test can wait for a line and show it on failure.
import { spawn, type ChildProcess } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** type-graphql's parameter decorators need apps/api's tsconfig under tsx (apps/api/decoratorTsconfig.ts). */
export const API_TSCONFIG = join(ROOT, "apps", "api", "tsconfig.json");

export interface AppProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  /** stdout and stderr interleaved, as written so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects if the process exits first. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  isRunning(): boolean;
}

const live = new Set<AppProcess>();
// A crashed test runner must not leave apps holding the broker's consumer groups.
process.once("exit", () => {
  for (const app of live) app.child.kill("SIGKILL");
});

/** Environment for a child: the parent's minus vitest's markers (the apps must not think they are under test). */
function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith("VITEST") && name !== "NODE_ENV") base[name] = value;
  }
  // The bench can run the servers as production would (graphql-js skips its dev-mode checks).
  if (process.env.VERDICT_CHILD_NODE_ENV) base.NODE_ENV = process.env.VERDICT_CHILD_NODE_ENV;
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete base[name];
    else base[name] = value;
  }
  return base;
}

export interface SpawnOptions {
  cwd?: string;
  /** Run under tsx (default), or with plain node (a bundle: scripts/bundle.mjs). */
  tsx?: boolean;
}

export function spawnApp(name: string, args: string[], env: Record<string, string | undefined>, options: SpawnOptions = {}): AppProcess {
  const loader = options.tsx === false ? [] : ["--import", "tsx"];
  const child = spawn(process.execPath, [...loader, ...args], { cwd: options.cwd ?? ROOT, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const wake of waiters) wake();
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  let running = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => {
      running = false;
      live.delete(app);
      for (const wake of waiters) wake();
      resolve({ code, signal });
    }),
  );
  const app: AppProcess = {
    name,
    child,
    pid: child.pid!,
    output: () => output,
    exited,
    isRunning: () => running,
    waitForOutput(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`${name}: no ${pattern} within ${timeoutMs} ms; output:\n${tail(output)}`)), timeoutMs);
        const check = () => {
          const match = pattern.exec(output);
          if (match) finish(null, match);
          else if (!running) finish(new Error(`${name} exited before printing ${pattern}; output:\n${tail(output)}`));
        };
        const finish = (error: Error | null, match?: RegExpMatchArray) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolve(match!);
        };
        waiters.add(check);
        check();
      });
    },
  };
  live.add(app);
  return app;
}

/** The last lines of an output, for failure messages. */
export function tail(text: string, lines = 40): string {
  return text.split("\n").slice(-lines).join("\n");
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stopApp(app: AppProcess, graceMs = 5_000): Promise<void> {
  if (!app.isRunning()) return;
  app.child.kill("SIGTERM");
  const timer = setTimeout(() => app.child.kill("SIGKILL"), graceMs);
  await app.exited;
  clearTimeout(timer);
}

/** kill -9: no shutdown hook runs, connections drop as a crash drops them. */
export async function killApp(app: AppProcess): Promise<void> {
  if (!app.isRunning()) return;
  app.child.kill("SIGKILL");
  await app.exited;
}

/** Polls `check` until it returns a truthy value (returned), or fails naming `what`. */
export async function waitFor<T>(what: string, check: () => Promise<T> | T, timeoutMs = 60_000, intervalMs = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${(lastError as Error).message})` : ""}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Peak resident memory of a live process in MB (VmHWM), or null once it has gone. */
export async function peakRssMbOf(pid: number): Promise<number | null> {
  const { readFile } = await import("node:fs/promises");
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kb = /VmHWM:\s+(\d+) kB/.exec(status);
    return kb ? Math.round(Number(kb[1]) / 1024) : null;
  } catch {
    return null;
  }
}
