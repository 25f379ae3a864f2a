// The projector's probe port (VERDICT_HEALTH_PORT), asked by a real HTTP client of the real
// process: /readyz is 503 until it follows the log, 200 while it does, 503 naming the read
// models while their database does not answer (a black-holed network), and /healthz stays 200
// throughout: an outage of a dependency is not a reason to restart it.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTcpProxy, type TcpProxy } from "@verdict/infra/testing";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";

const here = dirname(fileURLToPath(import.meta.url));
const TSX = import.meta.resolve("tsx");
let eventsDb: TestDatabase;
let readDb: TestDatabase;
let proxy: TcpProxy;

beforeAll(async () => {
  eventsDb = await createTestDatabase("verdict_projector_probes_events");
  readDb = await createTestDatabase("verdict_projector_probes_read");
  proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(readDb.url).port || 5432) });
});

afterAll(async () => {
  await proxy?.close();
  await eventsDb?.drop();
  await readDb?.drop();
});

async function probe(port: number, path: string): Promise<{ status: number; body: unknown; cache: string | null }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.json(), cache: res.headers.get("cache-control") };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("the projector's probes", () => {
  it("answers ready while it follows the log, unready naming the read models while their database is cut off, alive throughout", async () => {
    const read = new URL(readDb.url);
    read.port = String(proxy.port);
    const child = spawn(process.execPath, ["--import", TSX, join(here, "main.ts"), "run"], {
      cwd: join(here, "..", ".."),
      env: { ...process.env, DATABASE_URL: eventsDb.url, VERDICT_READ_DATABASE_URL: read.toString(), VERDICT_HEALTH_PORT: "0", VERDICT_PG_QUERY_TIMEOUT_MS: "5000" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    try {
      const port = Number((await until(async () => stdout, (out) => /probes at http:\/\/127\.0\.0\.1:\d+\//.test(out))).match(/probes at http:\/\/127\.0\.0\.1:(\d+)\//)?.[1]);
      expect(port, `stdout: ${stdout}\nstderr: ${stderr}`).toBeGreaterThan(0);
      const ready = await until(() => probe(port, "/readyz"), (answer) => answer.status === 200);
      expect(ready).toEqual({ status: 200, body: { status: "ready" }, cache: "no-store" });
      expect(stdout).toContain("projector following the log");

      proxy.blackHole();
      const cut = await until(() => probe(port, "/readyz"), (answer) => answer.status === 503);
      expect(cut).toEqual({ status: 503, body: { status: "unready", reasons: ["read models: their database did not answer within 2000 ms"] }, cache: "no-store" });
      expect(await probe(port, "/healthz")).toEqual({ status: 200, body: { status: "ok" }, cache: "no-store" });
      // The answer names no host, user or password: the probe answers anyone who reaches the port.
      expect(JSON.stringify(cut.body)).not.toContain(read.hostname);
      // Stopped with its read database still cut off: it ends once the query deadline gives up (5 s here).
    } finally {
      proxy.heal();
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  }, 90_000);
});
