// The API limits a deployment sets in its environment (the API process and `npm start` read the
// same ones); any limit not set keeps its default (DEFAULT_LIMITS).
import type { ApiLimits } from "./context.js";

/** Environment variable -> the limit it sets. */
export const LIMIT_VARIABLES = {
  VERDICT_API_MAX_KEY_OPERATIONS: "maxKeyOperations",
  VERDICT_API_MAX_ANSWER_BYTES: "maxAnswerBytes",
} as const satisfies Record<string, keyof ApiLimits>;

/** The limits `env` sets; a value that is not a whole number of at least 1 is an error naming it. */
export function apiLimitsFromEnv(env: NodeJS.ProcessEnv): Partial<ApiLimits> {
  const limits: Partial<ApiLimits> = {};
  for (const [variable, limit] of Object.entries(LIMIT_VARIABLES)) {
    const raw = env[variable]?.trim();
    if (!raw) continue;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < 1) throw new Error(`${variable} must be a whole number of at least 1 (got ${JSON.stringify(env[variable])})`);
    limits[limit] = value;
  }
  return limits;
}
