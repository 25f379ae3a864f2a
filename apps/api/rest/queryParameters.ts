// The query parameters a REST route takes: any other is refused (VALIDATION naming it and listing
// the route's), so a typo (`?them=dark`, `?mont=2026-01`) is not silently answered as if unasked.
import type { Request } from "express";
import { ApiError, shownId } from "../server/errors.js";

/** Throws VALIDATION for the first query parameter of `req` that is not one of `accepted`. */
export function refuseUnknownQuery(req: Pick<Request, "query">, accepted: readonly string[]): void {
  const unknown = Object.keys(req.query).find((name) => !accepted.includes(name));
  if (unknown === undefined) return;
  const takes = accepted.length === 0 ? "no query parameters" : `only ${accepted.join(", ")}`;
  throw new ApiError("VALIDATION", `unknown query parameter ${JSON.stringify(shownId(unknown))}: this route takes ${takes}`, shownId(unknown));
}
