import { describe, expect, it } from "vitest";
import { boundText, confidenceLabel, roundBound } from "./figures.js";

describe("confidenceLabel", () => {
  it("writes the usual levels as before: one decimal at most, trailing zero dropped", () => {
    expect([0.95, 0.9, 0.99, 0.5, 0.975, 0.999, 0.8123].map(confidenceLabel)).toEqual(["95%", "90%", "99%", "50%", "97.5%", "99.9%", "81.2%"]);
  });

  it("keeps the digits a level near 0 or 100 needs, never reading as 0% or 100%", () => {
    expect([0.9995, 0.99995, 0.9999, 0.0005, 0.00001].map(confidenceLabel)).toEqual(["99.95%", "99.995%", "99.99%", "0.05%", "0.001%"]);
  });
});

describe("roundBound and boundText", () => {
  it("keep one decimal, as bounds were always recorded and shown", () => {
    expect([73.85, 63.75, 0.05, -2.46, 100, 0, -0].map(roundBound)).toEqual([73.9, 63.8, 0.1, -2.5, 100, 0, 0]);
    expect([73.8, 0, 0.1, -2.5, 100].map(boundText)).toEqual(["73.8", "0.0", "0.1", "-2.5", "100.0"]);
  });

  it("give a bound that is not zero the decimals it needs not to read 0.0", () => {
    expect([100 / 3000, 0.04999, -0.0333, 0.004].map(roundBound)).toEqual([0.03, 0.05, -0.03, 0.004]);
    expect([0.03, -0.03, 0.004, 0.0333].map(boundText)).toEqual(["0.03", "-0.03", "0.004", "0.03"]);
  });
});
