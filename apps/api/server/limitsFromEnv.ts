// The API limits a deployment sets in its environment (the API process and `npm start` read the
// same ones); any limit not set keeps its default (DEFAULT_LIMITS). The API process reads its PORT here too.
import { parseWholeNumber, SettingError, wholeNumberSetting } from "@verdict/infra/settings";
import { DEFAULT_LIMITS, type ApiLimits } from "./context.js";

/** Environment variable -> the limit it sets. */
const LIMIT_VARIABLES = {
  VERDICT_API_MAX_KEY_OPERATIONS: "maxKeyOperations",
  VERDICT_API_MAX_ANSWER_BYTES: "maxAnswerBytes",
  VERDICT_API_MAX_HELD_ANSWER_BYTES: "maxHeldAnswerBytes",
} as const satisfies Record<string, keyof ApiLimits>;

/** The limits `env` sets; a value that is not a whole number >= 1 is an error (SettingError) naming it. */
export function apiLimitsFromEnv(env: NodeJS.ProcessEnv): Partial<ApiLimits> {
  const limits: Partial<ApiLimits> = {};
  for (const [variable, limit] of Object.entries(LIMIT_VARIABLES)) {
    const value = wholeNumberSetting(env, variable, { min: 1 }, undefined);
    if (value !== undefined) limits[limit] = value;
  }
  const perRequest = limits.maxAnswerBytes ?? DEFAULT_LIMITS.maxAnswerBytes;
  if (limits.maxHeldAnswerBytes !== undefined && limits.maxHeldAnswerBytes < perRequest) {
    throw new SettingError("VERDICT_API_MAX_HELD_ANSWER_BYTES", `VERDICT_API_MAX_HELD_ANSWER_BYTES=${limits.maxHeldAnswerBytes}: what all requests may hold must be at least what one may answer (VERDICT_API_MAX_ANSWER_BYTES, ${perRequest})`);
  }
  return limits;
}

const PORT_RULE = { min: 0, max: 65535, noun: "port number" };

/**
 * The port PORT asks for (4000 when it is unset), read by the whole-number reader `verdict start`
 * and the worker use: `Number()` took "0x1064" for 4196, "4.1e3" for 4100 and "" for 0 (any free
 * port). A PORT that is set but blank is refused too: the API's port is where its clients point.
 */
export function apiPortFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.PORT;
  return raw === undefined ? 4000 : parseWholeNumber("PORT", raw, PORT_RULE);
}

/** What the API says when its port is taken (EADDRINUSE), naming how the port was chosen, as `verdict start` does. */
export function portTakenLine(env: NodeJS.ProcessEnv, port: number, host: string): string {
  const taken = `the port is taken (another process listens on ${host}:${port})`;
  if (env.PORT === undefined) return `port ${port}: ${taken}; set PORT to another, or 0 for any free one`;
  return `PORT=${port}: ${taken}; choose another, or 0 for any free one`;
}
