import { describe, expect, it } from "vitest";
import type { EventInput } from "../../events/registry.js";
import { given } from "../testing/givenWhenThen.js";
import { fold } from "../aggregate.js";
import { meteredOf, usageAggregate } from "./usageAggregate.js";
import { PlanLimitError } from "./plan.js";

const MONTH = "2026-11";
const meter = (run_id: string, quantity: number, kind = "execution"): EventInput<"UsageMetered"> => ({
  type: "UsageMetered", data: { tenant: "acme", kind: kind as "execution", quantity, run_id, evaluation_id: "e1", month: MONTH },
});
const meterUsage = (run_id: string, quantity: number, kind = "execution") => ({ type: "MeterUsage", tenant: "acme", kind, quantity, run_id, evaluation_id: "e1", month: MONTH });

describe("usage decider: metering", () => {
  it("meters a run's whole quantity, with no plan (no limit)", () => {
    expect(given(usageAggregate, []).when(meterUsage("r1", 6))).toEqual([meter("r1", 6)]);
  });

  it("meters nothing for a run already metered (a retried start or import), even over the limit now", () => {
    const plan = { executionsPerMonth: 6 };
    expect(given(usageAggregate, [meter("r1", 6)], { plan }).when(meterUsage("r1", 6))).toEqual([]);
    expect(given(usageAggregate, [meter("r1", 1, "evaluation_report")], { plan: { reportsPerMonth: 1 } }).when(meterUsage("r1", 1, "evaluation_report"))).toEqual([]);
  });

  it("a retry that finds its run grew meters only the difference: never under-counted", () => {
    expect(given(usageAggregate, [meter("r1", 4)]).when(meterUsage("r1", 6))).toEqual([meter("r1", 2)]);
  });

  it("admits exactly up to the limit", () => {
    expect(given(usageAggregate, [meter("r1", 6)], { plan: { executionsPerMonth: 10 } }).when(meterUsage("r2", 4))).toEqual([meter("r2", 4)]);
  });

  it("counts each kind against its own limit", () => {
    const state = [meter("r1", 10), meter("r2", 1, "evaluation_report")];
    expect(given(usageAggregate, state, { plan: { executionsPerMonth: 10, reportsPerMonth: 2 } }).when(meterUsage("r3", 1, "evaluation_report")))
      .toEqual([meter("r3", 1, "evaluation_report")]);
  });
});

describe("usage decider: refusals", () => {
  it("refuses executions past the month's limit with the host fields, metering nothing", () => {
    const when = () => given(usageAggregate, [meter("r1", 8)], { plan: { executionsPerMonth: 10 } }).when(meterUsage("r2", 3));
    expect(when).toThrow(PlanLimitError);
    try {
      when();
    } catch (error) {
      expect(error).toMatchObject({ code: "plan_limit_reached", upgradeRequired: true, details: { kind: "execution", limit: 10, used: 8, requested: 3 } });
      expect((error as Error).message).toMatch(/^Plan limit reached: .*over the plan's 10 \(VERDICT_QUOTA_EXECUTIONS; 8 used, 3 requested\)$/);
    }
  });

  it("refuses a report past its limit as report_limit_reached (HTTP 429)", () => {
    const when = () => given(usageAggregate, [meter("r1", 1, "evaluation_report")], { plan: { reportsPerMonth: 1 } }).when(meterUsage("r2", 1, "evaluation_report"));
    expect(when).toThrow(expect.objectContaining({ code: "report_limit_reached", details: { kind: "evaluation_report", limit: 1, used: 1, requested: 1 } }));
    expect(when).toThrow(/\(VERDICT_QUOTA_REPORTS; 1 used, 1 requested\)$/);
  });

  it("a limit of 0 refuses the first", () => {
    expect(() => given(usageAggregate, [], { plan: { executionsPerMonth: 0 } }).when(meterUsage("r1", 1))).toThrow(/Plan limit reached/);
  });

  it("execution disabled refuses executions, not reports", () => {
    const plan = { executionDisabled: true };
    expect(() => given(usageAggregate, [], { plan }).when(meterUsage("r1", 1))).toThrow(
      expect.objectContaining({ code: "execution_disabled", message: "Agent execution is disabled on this dashboard (VERDICT_EXECUTION_DISABLED=true)" }),
    );
    expect(given(usageAggregate, [], { plan }).when(meterUsage("r1", 1, "evaluation_report"))).toEqual([meter("r1", 1, "evaluation_report")]);
  });

  it("refuses a quantity that is not a whole number >= 1", () => {
    expect(() => given(usageAggregate, []).when(meterUsage("r1", 0))).toThrow(/quantity/);
    expect(() => given(usageAggregate, []).when(meterUsage("r1", 1.5))).toThrow(/quantity/);
  });
});

describe("usage state: folding cost", () => {
  it("folds 20,000 meters in linear time and still finds each run's meter", () => {
    const events = Array.from({ length: 20_000 }, (_, i) => meter(`r${i}`, 1));
    const t0 = performance.now();
    const state = fold(usageAggregate, events, usageAggregate.initialState());
    expect(performance.now() - t0).toBeLessThan(1000); // the per-event copy took minutes
    expect(state.used.execution).toBe(20_000);
    expect(given(usageAggregate, events.slice(0, 100)).when(meterUsage("r99", 1))).toEqual([]);
    expect(given(usageAggregate, events.slice(0, 100)).when(meterUsage("r100", 1))).toEqual([meter("r100", 1)]);
  });

  it("states folded from one another at different versions do not see each other's later meters", () => {
    const base = fold(usageAggregate, [meter("r1", 1)], usageAggregate.initialState());
    const a = fold(usageAggregate, [meter("r2", 1)], base);
    const b = fold(usageAggregate, [meter("r3", 5)], base); // a fold of something else at the same version
    expect([meteredOf(base, "execution", "r2"), meteredOf(a, "execution", "r2"), meteredOf(b, "execution", "r2"), meteredOf(b, "execution", "r3")]).toEqual([0, 1, 0, 5]);
    expect([a.used.execution, b.used.execution]).toEqual([2, 6]);
  });
});
