import { describe, expect, it } from "vitest";
import { distinctPercents, gateMessage } from "./gateMessage.js";

describe("the pass rate against the gate", () => {
  it("adds decimals only until the two figures differ, and never reads below when it is not", () => {
    expect(distinctPercents(0.8, 0.6)).toEqual(["80.0%", "60.0%"]);
    expect(distinctPercents(2 / 3, 0.667)).toEqual(["66.67%", "66.70%"]);
    expect(distinctPercents(2 / 3, 0.6666667)).toEqual(["66.666667%", "66.666670%"]);
    expect(distinctPercents(0.5, 0.5)).toEqual(["50.0%", "50.0%"]);
    const [rate, gate] = distinctPercents(2 / 3, 2 / 3 + 1e-16);
    expect(rate).not.toBe(gate);
    // Neighbouring doubles that meet once multiplied by 100 are shown as the fractions they are.
    expect(gateMessage({ passed: 7, total: 10, passRate: 0.7 }, 0.7000000000000001)).toEqual({ met: false, text: "gate failed: pass rate 0.7 (7/10) is below 0.7000000000000001" });
    expect(gateMessage({ passed: 2, total: 3, passRate: 2 / 3 }, 0.667)).toEqual({ met: false, text: "gate failed: pass rate 66.67% (2/3) is below 66.70%" });
    expect(gateMessage({ passed: 2, total: 3, passRate: 2 / 3 }, null)).toEqual({ met: true, text: "pass rate 66.7% (2/3)" });
  });
});
