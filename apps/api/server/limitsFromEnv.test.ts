import { expect, it } from "vitest";
import { apiLimitsFromEnv } from "./limitsFromEnv.js";

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
