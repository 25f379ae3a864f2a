// The API limits a deployment sets in its environment (the API process and `npm start` read the
// same ones); any limit not set keeps its default (DEFAULT_LIMITS). The API process reads its PORT
// and HOST here too, and refuses arguments (it takes none).
import { lookup } from "node:dns/promises";
import { parseWholeNumber, refuseArguments, SettingError, wholeNumberSetting, type WholeNumberRule } from "@verdict/infra/settings";
import { DEFAULT_LIMITS, type ApiLimits } from "./context.js";
import { answerPoolSize } from "./answerPoolSize.js";

/** Counts and bytes: a whole number of at least 1. */
const AT_LEAST_ONE: WholeNumberRule = { min: 1 };

/** Environment variable -> the limit it sets, and the rule its value must meet. */
const LIMIT_VARIABLES = {
  VERDICT_API_MAX_KEY_OPERATIONS: ["maxKeyOperations", AT_LEAST_ONE],
  VERDICT_API_MAX_ANSWER_BYTES: ["maxAnswerBytes", AT_LEAST_ONE],
  VERDICT_API_MAX_HELD_ANSWER_BYTES: ["maxHeldAnswerBytes", AT_LEAST_ONE],
  VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT: ["maxHeldAnswerBytesPerTenant", AT_LEAST_ONE],
  // A timer's longest wait at most: Node runs a longer one at once, which would never wait.
  VERDICT_API_HEAVY_LOAD_WAIT_MS: ["heavyLoadWaitMs", { min: 1, unit: "milliseconds" }],
} as const satisfies Record<string, readonly [keyof ApiLimits, WholeNumberRule]>;

/** The limits `env` sets; a value that breaks its rule (a whole number >= 1) is an error (SettingError) naming it. */
export function apiLimitsFromEnv(env: NodeJS.ProcessEnv): Partial<ApiLimits> {
  const limits: Partial<ApiLimits> = {};
  for (const [variable, [limit, rule]] of Object.entries(LIMIT_VARIABLES)) {
    const value = wholeNumberSetting(env, variable, rule, undefined);
    if (value !== undefined) limits[limit] = value;
  }
  // A pool or tenant share that cannot work is refused at start, not at the first heavy answer.
  answerPoolSize({ ...DEFAULT_LIMITS, ...limits });
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

const HOST_RULE = "a host name or IP address of this machine to listen on (default 127.0.0.1; 0.0.0.0 for every interface)";

/** HOST's refusal: one line naming HOST, the rule and why (`cause`, e.g. ENOTFOUND). */
function hostRefusedLine(raw: string, cause?: string): string {
  return `HOST must be ${HOST_RULE} (got ${JSON.stringify(raw)}${cause ? `: ${cause}` : ""})`;
}

/**
 * The address HOST asks the API to listen on (127.0.0.1 when it is unset). A HOST that is set but
 * blank is refused, as a blank PORT is: it used to mean 127.0.0.1 silently.
 */
export function apiHostFromEnv(env: NodeJS.ProcessEnv): string {
  const raw = env.HOST;
  if (raw === undefined) return "127.0.0.1";
  if (raw.trim() === "") throw new SettingError("HOST", hostRefusedLine(raw));
  return raw.trim();
}

/** Refuses (SettingError) a HOST that does not resolve, before anything is opened: listen said `getaddrinfo ENOTFOUND`, exit 1. */
export async function checkApiHost(host: string): Promise<void> {
  try {
    await lookup(host);
  } catch (error) {
    throw new SettingError("HOST", hostRefusedLine(host, `${(error as { code?: string }).code ?? "not resolved"}: no such host`));
  }
}

/** Listen errors that are HOST's (an address that is not this machine's): the user's to change, exit 2. */
export function hostListenError(error: unknown, host: string): SettingError | null {
  const code = (error as { code?: unknown }).code;
  if (code === "EADDRNOTAVAIL") return new SettingError("HOST", hostRefusedLine(host, "EADDRNOTAVAIL: not an address of this machine"));
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new SettingError("HOST", hostRefusedLine(host, `${code}: no such host`));
  return null;
}

/** The API takes no arguments (`npm run api -- --port 5000` was ignored): refused, exit 2. */
export function refuseApiArguments(argv: readonly string[]): void {
  refuseArguments(argv, "the API takes no arguments; it is configured by environment variables (PORT, HOST, DATABASE_URL, …: apps/api/README.md)");
}
