// Test helpers for suites that run the worker as its own process (`tsx apps/worker/main.ts`),
// on real PostgreSQL and Kafka: start one, read what it logged, kill it.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const brokers = (process.env.KAFKA_BROKERS || "127.0.0.1:9092").split(",").map((b) => b.trim());

export interface WorkerChild {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `tsx apps/worker/main.ts` as its own process, from source (the e2e tests run the bundled form). */
export function spawnWorker(env: Record<string, string>): WorkerChild {
  const child = spawn(process.execPath, ["--import", "tsx", "apps/worker/main.ts"], {
    cwd: new URL("../..", import.meta.url).pathname,
    env: { ...process.env, KAFKA_BROKERS: brokers.join(","), VERDICT_JUDGE: "none", VERDICT_KAFKA_PARTITIONS: "2", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, stderr: () => stderr, exited };
}

export async function agentFile(script: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), "worker-main-")), "agent.yaml");
  await writeFile(path, script);
  return path;
}
