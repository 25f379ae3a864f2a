import { describe, expect, it } from "vitest";
import { planFromEnv } from "./planSettings.js";

describe("planFromEnv", () => {
  it("unset or blank: no limits, execution enabled", () => {
    expect(planFromEnv({})).toEqual({});
    expect(planFromEnv({ VERDICT_QUOTA_EXECUTIONS: " ", VERDICT_QUOTA_REPORTS: "", VERDICT_EXECUTION_DISABLED: "" })).toEqual({});
  });

  it("reads the quotas (0 allowed: nothing of that kind) and the switch", () => {
    expect(planFromEnv({ VERDICT_QUOTA_EXECUTIONS: "1000", VERDICT_QUOTA_REPORTS: "0", VERDICT_EXECUTION_DISABLED: " TRUE " }))
      .toEqual({ executionsPerMonth: 1000, reportsPerMonth: 0, executionDisabled: true });
    expect(planFromEnv({ VERDICT_EXECUTION_DISABLED: "false" })).toEqual({});
  });

  it("refuses a bad value naming the variable and its rule", () => {
    expect(() => planFromEnv({ VERDICT_QUOTA_EXECUTIONS: "-1" })).toThrow('VERDICT_QUOTA_EXECUTIONS must be a whole number >= 0 (got "-1")');
    expect(() => planFromEnv({ VERDICT_QUOTA_REPORTS: "1e3" })).toThrow(/^VERDICT_QUOTA_REPORTS must be a whole number >= 0/);
    expect(() => planFromEnv({ VERDICT_EXECUTION_DISABLED: "1" })).toThrow('VERDICT_EXECUTION_DISABLED must be true or false (got "1")');
  });
});
