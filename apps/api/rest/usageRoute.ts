// GET /api/usage[?month=YYYY-MM]: the caller's tenant's plan meters as JSON, the same as Query.usage.
import { Router, type NextFunction, type Request, type Response } from "express";
import { requestContext } from "../server/context.js";
import { ApiError } from "../server/errors.js";
import { planMeter } from "../usage/planMeter.js";

export function usageRouter(): Router {
  const router = Router();
  router.get("/usage", (req: Request, res: Response, next: NextFunction) => {
    const month = req.query.month;
    if (month !== undefined && typeof month !== "string") return next(new ApiError("VALIDATION", "month must be given once", "month"));
    planMeter(requestContext(req), month).then((answer) => res.json(answer), next);
  });
  return router;
}
