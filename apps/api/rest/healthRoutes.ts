// GET (and HEAD) /healthz and /readyz, for a load balancer's health check or an orchestrator's
// probes: no API key (a probe holds none, and a tenant's key in a probe's config would be a secret
// in plain sight), no tenant's data, nothing about the build. Mounted beside /graphql and /api,
// not under them: they read no key, wait for no rebuild check and take nothing from the answer
// pool, so they neither count against what tenants are allowed nor queue behind them.
//   /healthz  200 {"status":"ok"} while the process answers HTTP. It asks no database: a
//             database outage would otherwise get every API process restarted by its liveness probe.
//   /readyz   200 {"status":"ready"}, or 503 {"status":"unready","reasons":[...]} (server/readiness.ts).
// A query parameter is VALIDATION (400), as on the other REST routes: `/readyz?verbose` is not
// answered as if it had been understood.
import { Router, type NextFunction, type Request, type Response } from "express";
import type { Readiness } from "../server/readiness.js";
import { refuseUnknownQuery } from "./queryParameters.js";

export function healthRouter(readiness: Readiness): Router {
  const router = Router();
  router.get("/healthz", (req: Request, res: Response, next: NextFunction) => {
    if (!refusedQuery(req, next)) answer(res, 200, { status: "ok" });
  });
  router.get("/readyz", (req: Request, res: Response, next: NextFunction) => {
    if (refusedQuery(req, next)) return;
    readiness().then((reasons) => {
      answer(res, reasons.length === 0 ? 200 : 503, reasons.length === 0 ? { status: "ready" } : { status: "unready", reasons });
    }, next);
  });
  return router;
}

/** True when a query parameter was refused (passed on to the error handler). */
function refusedQuery(req: Request, next: NextFunction): boolean {
  try {
    refuseUnknownQuery(req, []);
    return false;
  } catch (error) {
    next(error);
    return true;
  }
}

/** Never kept by a proxy or a client: a probe's answer is about now. */
function answer(res: Response, status: number, body: object): void {
  res.status(status).set("Cache-Control", "no-store").json(body);
}
