import { describe, expect, it } from "vitest";
import { resolveModels, selectScenarios } from "./selection.js";
import { CLAUDE, GPT, record } from "../testing/fixtures.js";

const suite = [
  record("late", 9, { group: "orders" }),
  record("off", 1, { group: "orders", enabled: false }),
  record("first", 0, { group: "billing" }),
  record("mid", 4, { group: "orders" }),
];

describe("selectScenarios", () => {
  it("takes enabled scenarios in position order; disabled ones are never selected", () => {
    expect(selectScenarios(suite, null, null).map((s) => s.key)).toEqual(["first", "mid", "late"]);
  });

  it("narrows by keys AND group", () => {
    expect(selectScenarios(suite, ["late", "first", "off"], "orders").map((s) => s.key)).toEqual(["late"]);
    expect(selectScenarios(suite, null, "orders").map((s) => s.key)).toEqual(["mid", "late"]);
  });

  it("refuses a selection that matches nothing", () => {
    expect(() => selectScenarios(suite, ["off"], null)).toThrow(expect.objectContaining({ code: "validation", field: "selection" }));
  });
});

describe("resolveModels", () => {
  it("collapses duplicate labels, first wins", () => {
    expect(resolveModels([GPT, CLAUDE, { ...GPT, model: "other" }])).toEqual([GPT, CLAUDE]);
  });

  it("refuses no models", () => {
    expect(() => resolveModels([])).toThrow(/No models selected/);
  });
});
