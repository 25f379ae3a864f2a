import { describe, expect, it } from "vitest";
import { confidenceLabel } from "./figures.js";

describe("confidenceLabel", () => {
  it("writes the usual levels as before: one decimal at most, trailing zero dropped", () => {
    expect([0.95, 0.9, 0.99, 0.5, 0.975, 0.999, 0.8123].map(confidenceLabel)).toEqual(["95%", "90%", "99%", "50%", "97.5%", "99.9%", "81.2%"]);
  });

  it("keeps the digits a level near 0 or 100 needs, never reading as 0% or 100%", () => {
    expect([0.9995, 0.99995, 0.9999, 0.0005, 0.00001].map(confidenceLabel)).toEqual(["99.95%", "99.995%", "99.99%", "0.05%", "0.001%"]);
  });
});
