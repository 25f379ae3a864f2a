// How large the process's answer pool (answerPool.ts) is, and one tenant's share of it: as the
// deployment set them (VERDICT_API_MAX_HELD_ANSWER_BYTES, ..._PER_TENANT) or by default. Read at
// start by the environment's reader (limitsFromEnv.ts) and by the server, so a size that cannot
// work is refused once, naming its variable, whichever way it was given.
import { SettingError } from "@verdict/infra/settings";
import type { ApiLimits } from "./context.js";

/** The process's pool when none is set: four requests' budgets. */
const HELD_ANSWERS_PER_BUDGET = 4;

export interface AnswerPoolSize {
  maxBytes: number;
  tenantMaxBytes: number;
}

type PoolLimits = Pick<ApiLimits, "maxAnswerBytes" | "maxHeldAnswerBytes" | "maxHeldAnswerBytesPerTenant">;

/**
 * The pool (default 4 x one request's budget) and a tenant's share (default half the pool, never
 * below one request's budget: a field a request may answer must fit some tenant's share). A pool
 * below one request's budget, or a share below it or above the pool, is refused (SettingError).
 */
export function answerPoolSize(limits: PoolLimits): AnswerPoolSize {
  const perRequest = limits.maxAnswerBytes;
  const maxBytes = limits.maxHeldAnswerBytes ?? HELD_ANSWERS_PER_BUDGET * perRequest;
  if (maxBytes < perRequest) {
    throw new SettingError("VERDICT_API_MAX_HELD_ANSWER_BYTES", `VERDICT_API_MAX_HELD_ANSWER_BYTES=${maxBytes}: what all requests may hold must be at least what one may answer (VERDICT_API_MAX_ANSWER_BYTES, ${perRequest})`);
  }
  const tenantMaxBytes = limits.maxHeldAnswerBytesPerTenant ?? Math.max(Math.floor(maxBytes / 2), perRequest);
  const tenantRule = (bound: string) => new SettingError("VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT", `VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT=${tenantMaxBytes}: what one tenant's requests may hold must be ${bound}`);
  if (tenantMaxBytes < perRequest) throw tenantRule(`at least what one request may answer (VERDICT_API_MAX_ANSWER_BYTES, ${perRequest})`);
  if (tenantMaxBytes > maxBytes) throw tenantRule(`at most what all requests may hold (VERDICT_API_MAX_HELD_ANSWER_BYTES, ${maxBytes})`);
  return { maxBytes, tenantMaxBytes };
}
