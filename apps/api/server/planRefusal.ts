// A plan's refusal answers a GraphQL request with its HTTP status (402, 429, 403), as the
// reference's REST answers do, not 200: a client or proxy that reads only the status still
// learns it was refused, and why. formatError (errors.ts) still words the error and its
// extensions (code, and the host fields: error, upgrade_required, kind, limit, used, requested).
import { GraphQLError } from "graphql";
import { classify, HTTP_STATUS, type ApiErrorCode } from "./errors.js";

const PLAN_CODES: ReadonlySet<ApiErrorCode> = new Set(["PLAN_LIMIT_REACHED", "REPORT_LIMIT_REACHED", "EXECUTION_DISABLED"]);

/** `work`, its plan refusal carrying the status Apollo answers the request with (extensions.http). */
export async function withPlanStatus<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const known = classify(error);
    if (!known || !PLAN_CODES.has(known.code) || !(error instanceof Error)) throw error;
    throw new GraphQLError(known.message, { originalError: error, extensions: { http: { status: HTTP_STATUS[known.code] } } });
  }
}
