import { expect, it } from "vitest";
import { apiLimitsFromEnv } from "./limitsFromEnv.js";
import { answerPoolSize } from "./answerPoolSize.js";
import { DEFAULT_LIMITS } from "./context.js";
import { SettingError } from "@verdict/infra/settings";

it("reads maxKeyOperations from VERDICT_API_MAX_KEY_OPERATIONS, and leaves it to its default when unset", () => {
  expect(apiLimitsFromEnv({ VERDICT_API_MAX_KEY_OPERATIONS: " 250 " })).toEqual({ maxKeyOperations: 250 });
  expect(apiLimitsFromEnv({ VERDICT_API_MAX_KEY_OPERATIONS: "" })).toEqual({});
  expect(apiLimitsFromEnv({})).toEqual({});
});

it("refuses a value that is not a whole number of at least 1, naming the variable", () => {
  for (const bad of ["0", "-1", "2.5", "lots", "1e3"]) {
    expect(() => apiLimitsFromEnv({ VERDICT_API_MAX_KEY_OPERATIONS: bad })).toThrow(`VERDICT_API_MAX_KEY_OPERATIONS must be a whole number >= 1 (got ${JSON.stringify(bad)})`);
  }
});

it("reads maxAnswerBytes from VERDICT_API_MAX_ANSWER_BYTES, refusing what is not a whole number of bytes, naming the variable", () => {
  expect(apiLimitsFromEnv({ VERDICT_API_MAX_ANSWER_BYTES: "134217728" })).toEqual({ maxAnswerBytes: 134_217_728 });
  expect(apiLimitsFromEnv({ VERDICT_API_MAX_ANSWER_BYTES: " " })).toEqual({});
  for (const bad of ["0", "64mb", "1.5", "-5"]) {
    expect(() => apiLimitsFromEnv({ VERDICT_API_MAX_ANSWER_BYTES: bad })).toThrow(`VERDICT_API_MAX_ANSWER_BYTES must be a whole number >= 1 (got ${JSON.stringify(bad)})`);
  }
});

it("reads maxHeldAnswerBytes from VERDICT_API_MAX_HELD_ANSWER_BYTES, refusing one below what one request may answer, naming both", () => {
  expect(apiLimitsFromEnv({ VERDICT_API_MAX_HELD_ANSWER_BYTES: "536870912" })).toEqual({ maxHeldAnswerBytes: 536_870_912 });
  expect(apiLimitsFromEnv({ VERDICT_API_MAX_ANSWER_BYTES: "1000", VERDICT_API_MAX_HELD_ANSWER_BYTES: "1000" })).toEqual({ maxAnswerBytes: 1000, maxHeldAnswerBytes: 1000 });
  expect(() => apiLimitsFromEnv({ VERDICT_API_MAX_HELD_ANSWER_BYTES: "1000000" })).toThrow(
    "VERDICT_API_MAX_HELD_ANSWER_BYTES=1000000: what all requests may hold must be at least what one may answer (VERDICT_API_MAX_ANSWER_BYTES, 67108864)",
  );
  expect(() => apiLimitsFromEnv({ VERDICT_API_MAX_HELD_ANSWER_BYTES: "lots" })).toThrow("VERDICT_API_MAX_HELD_ANSWER_BYTES must be a whole number >= 1");
});

it("reads maxHeldAnswerBytesPerTenant from VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT, leaving it to its default (half the pool) when unset", () => {
  expect(apiLimitsFromEnv({ VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT: "134217728" })).toEqual({ maxHeldAnswerBytesPerTenant: 134_217_728 });
  // Equal to the pool: one tenant may hold all of it, as before tenants had shares.
  expect(apiLimitsFromEnv({ VERDICT_API_MAX_HELD_ANSWER_BYTES: "268435456", VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT: "268435456" })).toEqual({ maxHeldAnswerBytes: 268_435_456, maxHeldAnswerBytesPerTenant: 268_435_456 });
  expect(apiLimitsFromEnv({ VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT: "" })).toEqual({});
  expect(answerPoolSize(DEFAULT_LIMITS)).toEqual({ maxBytes: 268_435_456, tenantMaxBytes: 134_217_728 });
  // Never below one request's budget: a pool of one budget is all one tenant's.
  expect(answerPoolSize({ maxAnswerBytes: 1000, maxHeldAnswerBytes: 1500 })).toEqual({ maxBytes: 1500, tenantMaxBytes: 1000 });
});

it("refuses a tenant share that is not a whole number, below what one request may answer, or above the pool, naming the variable", () => {
  for (const bad of ["0", "half", "2.5", "-1"]) {
    expect(() => apiLimitsFromEnv({ VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT: bad })).toThrow(`VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT must be a whole number >= 1 (got ${JSON.stringify(bad)})`);
  }
  expect(() => apiLimitsFromEnv({ VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT: "1000000" })).toThrow(
    "VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT=1000000: what one tenant's requests may hold must be at least what one request may answer (VERDICT_API_MAX_ANSWER_BYTES, 67108864)",
  );
  expect(() => apiLimitsFromEnv({ VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT: "268435457" })).toThrow(
    "VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT=268435457: what one tenant's requests may hold must be at most what all requests may hold (VERDICT_API_MAX_HELD_ANSWER_BYTES, 268435456)",
  );
  expect(() => apiLimitsFromEnv({ VERDICT_API_MAX_ANSWER_BYTES: "1000", VERDICT_API_MAX_HELD_ANSWER_BYTES: "2000", VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT: "3000" })).toThrow(
    "VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT=3000: what one tenant's requests may hold must be at most what all requests may hold (VERDICT_API_MAX_HELD_ANSWER_BYTES, 2000)",
  );
  // A setting's refusal (the API exits 2 naming it), not a crash.
  expect(() => apiLimitsFromEnv({ VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT: "3000" })).toThrow(SettingError);
});

it("reads heavyLoadWaitMs from VERDICT_API_HEAVY_LOAD_WAIT_MS (default 30 s), refusing what is not a whole number of milliseconds a timer can wait, naming the variable", () => {
  expect(DEFAULT_LIMITS.heavyLoadWaitMs).toBe(30_000);
  expect(apiLimitsFromEnv({ VERDICT_API_HEAVY_LOAD_WAIT_MS: " 5000 " })).toEqual({ heavyLoadWaitMs: 5000 });
  expect(apiLimitsFromEnv({ VERDICT_API_HEAVY_LOAD_WAIT_MS: "" })).toEqual({});
  for (const bad of ["0", "-1", "2.5", "30s", "1e3"]) {
    expect(() => apiLimitsFromEnv({ VERDICT_API_HEAVY_LOAD_WAIT_MS: bad })).toThrow(`VERDICT_API_HEAVY_LOAD_WAIT_MS must be a whole number of milliseconds >= 1 (got ${JSON.stringify(bad)})`);
  }
  // Node runs a timer set longer at once: such a wait would not wait at all.
  expect(() => apiLimitsFromEnv({ VERDICT_API_HEAVY_LOAD_WAIT_MS: "2147483648" })).toThrow("VERDICT_API_HEAVY_LOAD_WAIT_MS must be at most 2147483647 milliseconds");
  expect(() => apiLimitsFromEnv({ VERDICT_API_HEAVY_LOAD_WAIT_MS: "0" })).toThrow(SettingError);
});
