import { afterEach, describe, expect, it } from "vitest";
import { healthPortFromEnv } from "./healthPort.js";
import { startProbeServer, type ProbeServer } from "./probeServer.js";
import { readinessOf } from "./readinessChecks.js";

let server: ProbeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function ask(method: string, path: string): Promise<{ status: number; text: string; allow: string | null }> {
  const res = await fetch(`http://127.0.0.1:${server!.port}${path}`, { method });
  return { status: res.status, text: await res.text(), allow: res.headers.get("allow") };
}

describe("startProbeServer", () => {
  it("answers the two paths as the API's probes do, and refuses anything else saying what it answers", async () => {
    let reasons: string[] = [];
    server = await startProbeServer(async () => reasons, { port: 0, host: "127.0.0.1" });
    expect(await ask("GET", "/readyz")).toEqual({ status: 200, text: '{"status":"ready"}', allow: null });
    reasons = ["Kafka broker 127.0.0.1:9092 unreachable"];
    expect(await ask("GET", "/readyz")).toEqual({ status: 503, text: '{"status":"unready","reasons":["Kafka broker 127.0.0.1:9092 unreachable"]}', allow: null });
    expect(await ask("HEAD", "/readyz")).toEqual({ status: 503, text: "", allow: null });
    expect(await ask("GET", "/healthz")).toEqual({ status: 200, text: '{"status":"ok"}', allow: null });
    expect(await ask("GET", "/metrics")).toEqual({ status: 404, text: '{"error":"not found: this port answers GET /healthz (liveness) and GET /readyz (readiness)"}', allow: null });
    expect(await ask("POST", "/healthz")).toEqual({ status: 405, text: '{"error":"method POST: this port answers GET /healthz (liveness) and GET /readyz (readiness)"}', allow: "GET, HEAD" });
  });
});

describe("readinessOf", () => {
  it("puts the process's own reasons first, then each failed check's, naming its database but not where it is", async () => {
    const logged: string[] = [];
    const readiness = readinessOf(
      [
        { what: "event store", database: "its database", logged: "database at db:5432/verdict", ask: async () => null },
        { what: "read models", database: "their database", logged: "database at db:5432/read", ask: () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:5432\n    at frame"), { code: "ECONNREFUSED" })) },
      ],
      { log: (line) => logged.push(line), whoseLog: "the worker's log", extra: () => ["stopping"] },
    );
    expect(await readiness()).toEqual(["stopping", "read models: their database failed a trivial query (ECONNREFUSED); the worker's log has the error"]);
    expect(logged).toEqual(["/readyz: read models, database at db:5432/read, failed a trivial query: connect ECONNREFUSED 10.0.0.5:5432 at frame (ECONNREFUSED)"]);
  });
});

describe("healthPortFromEnv", () => {
  it("opens no port unless VERDICT_HEALTH_PORT is set, and reads it as every port setting is read", () => {
    expect(healthPortFromEnv({})).toBeNull();
    expect(healthPortFromEnv({ VERDICT_HEALTH_PORT: "9464" })).toEqual({ port: 9464, host: "127.0.0.1" });
    expect(healthPortFromEnv({ VERDICT_HEALTH_PORT: " 0 ", VERDICT_HEALTH_HOST: "0.0.0.0" })).toEqual({ port: 0, host: "0.0.0.0" });
    expect(() => healthPortFromEnv({ VERDICT_HEALTH_PORT: "" })).toThrow('VERDICT_HEALTH_PORT must be a port number 0-65535 (got "")');
    expect(() => healthPortFromEnv({ VERDICT_HEALTH_PORT: "9464", VERDICT_HEALTH_HOST: " " })).toThrow(/^VERDICT_HEALTH_HOST must be a host name or IP address/);
  });
});
