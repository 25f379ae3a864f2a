// GET /api/usage[?month=YYYY-MM]: the caller's tenant's plan meters as JSON, the same as Query.usage
// (any other query parameter is VALIDATION).
import { Router, type NextFunction, type Request, type Response } from "express";
import { requestContext } from "../server/context.js";
import { ApiError } from "../server/errors.js";
import { planMeter } from "../usage/planMeter.js";
import { refuseUnknownQuery } from "./queryParameters.js";

export function usageRouter(): Router {
  const router = Router();
  router.get("/usage", (req: Request, res: Response, next: NextFunction) => {
    try {
      refuseUnknownQuery(req, ["month"]);
    } catch (error) {
      return next(error);
    }
    const month = req.query.month;
    if (month !== undefined && typeof month !== "string") return next(new ApiError("VALIDATION", "month must be given once", "month"));
    planMeter(requestContext(req), month).then((answer) => res.json(answer), next);
  });
  return router;
}
