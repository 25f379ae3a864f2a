// The probe port of a process that serves no HTTP of its own (the worker, the projector), so an
// orchestrator probes it as it probes the API (apps/api/rest/healthRoutes.ts: the same paths,
// answers and rules): no key, nothing about the build, `Cache-Control: no-store`, GET or HEAD,
// and a query parameter refused (400) rather than answered as if understood.
//   /healthz  200 {"status":"ok"} while the process answers: it asks no dependency, so an outage
//             of one does not get every process restarted by its liveness probe.
//   /readyz   200 {"status":"ready"}, or 503 {"status":"unready","reasons":[...]}.
// node:http alone: the worker and the projector load no web framework for two paths.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SettingError } from "../settings/wholeNumber.js";
import type { HealthPort } from "./healthPort.js";
import type { Readiness } from "./readinessChecks.js";

export interface ProbeServer {
  /** The port it listens on (the one asked for, or the one given for 0). */
  readonly port: number;
  close(): Promise<void>;
}

const PATHS = "GET /healthz (liveness) and GET /readyz (readiness)";

/** Listens on `where`; a port taken or a host not of this machine is a SettingError naming the variable (exit 2). */
export async function startProbeServer(readiness: Readiness, where: HealthPort): Promise<ProbeServer> {
  const server = createServer((req, res) => answer(req, res, readiness));
  const address = await listen(server, where);
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function answer(req: IncomingMessage, res: ServerResponse, readiness: Readiness): void {
  const url = new URL(req.url ?? "/", "http://probe");
  const head = req.method === "HEAD";
  if (req.method !== "GET" && !head) return send(res, 405, { error: `method ${req.method}: this port answers ${PATHS}` }, head, { Allow: "GET, HEAD" });
  if (url.pathname !== "/healthz" && url.pathname !== "/readyz") return send(res, 404, { error: `not found: this port answers ${PATHS}` }, head);
  if (url.search !== "") return send(res, 400, { error: `${url.pathname} takes no query parameters` }, head);
  if (url.pathname === "/healthz") return send(res, 200, { status: "ok" }, head);
  readiness().then(
    (reasons) => send(res, reasons.length === 0 ? 200 : 503, reasons.length === 0 ? { status: "ready" } : { status: "unready", reasons }, head),
    // Readiness never rejects; should it, the probe still gets an answer.
    (error: unknown) => send(res, 503, { status: "unready", reasons: [`the readiness check failed: ${(error as Error)?.message ?? String(error)}`] }, head),
  );
}

/** Never kept by a proxy or a client: a probe's answer is about now. */
function send(res: ServerResponse, status: number, body: object, head: boolean, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-store", ...headers });
  res.end(head ? undefined : text);
}

function listen(server: Server, where: HealthPort): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => reject(listenError(error, where)));
    server.listen(where.port, where.host, () => resolve(server.address() as AddressInfo));
  });
}

/** The operator's to change (exit 2), naming the variable: a port taken, or a host that is not this machine's. */
function listenError(error: NodeJS.ErrnoException, where: HealthPort): Error {
  if (error.code === "EADDRINUSE") return new SettingError("VERDICT_HEALTH_PORT", `VERDICT_HEALTH_PORT=${where.port}: the port is taken (another process listens on ${where.host}:${where.port}); choose another, or 0 for any free one`);
  if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND" || error.code === "EAI_AGAIN") {
    return new SettingError("VERDICT_HEALTH_HOST", `VERDICT_HEALTH_HOST=${where.host}: ${error.code}: not an address of this machine (default 127.0.0.1; 0.0.0.0 for every interface)`);
  }
  return error;
}
