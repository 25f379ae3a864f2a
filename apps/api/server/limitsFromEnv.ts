// The API limits a deployment sets in its environment (the API process and `npm start` read the
// same ones); any limit not set keeps its default (DEFAULT_LIMITS).
import { wholeNumberSetting } from "@verdict/infra/settings";
import type { ApiLimits } from "./context.js";

/** Environment variable -> the limit it sets. */
const LIMIT_VARIABLES = {
  VERDICT_API_MAX_KEY_OPERATIONS: "maxKeyOperations",
  VERDICT_API_MAX_ANSWER_BYTES: "maxAnswerBytes",
} as const satisfies Record<string, keyof ApiLimits>;

/** The limits `env` sets; a value that is not a whole number >= 1 is an error (SettingError) naming it. */
export function apiLimitsFromEnv(env: NodeJS.ProcessEnv): Partial<ApiLimits> {
  const limits: Partial<ApiLimits> = {};
  for (const [variable, limit] of Object.entries(LIMIT_VARIABLES)) {
    const value = wholeNumberSetting(env, variable, { min: 1 }, undefined);
    if (value !== undefined) limits[limit] = value;
  }
  return limits;
}
