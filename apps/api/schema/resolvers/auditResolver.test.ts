import "reflect-metadata";
import { describe, expect, it } from "vitest";
import type { Result } from "@verdict/projector";
import { diffRuns } from "./auditResolver.js";
import { canonicalJson } from "../../report/importEnvelope.js";
import { downloadName } from "../../rest/reportRoutes.js";

const r = (scenarioKey: string, modelLabel: string, status: Result["status"]) => ({ scenarioKey, modelLabel, status }) as Result;

describe("diffRuns", () => {
  it("sorts pairs into fixed, regressed, still failing, still passing, added and removed", () => {
    const before = [r("a", "m", "failed"), r("b", "m", "passed"), r("c", "m", "errored"), r("d", "m", "passed"), r("gone", "m", "passed")];
    const after = [r("a", "m", "passed"), r("b", "m", "failed"), r("c", "m", "failed"), r("d", "m", "passed"), r("new", "m", "failed"), r("a", "n", "passed")];
    const diff = diffRuns("r1", "r2", before, after);
    expect(diff.fixed.map((x) => x.scenarioKey)).toEqual(["a"]);
    expect(diff.regressed).toEqual([{ scenarioKey: "b", modelLabel: "m", before: "PASSED", after: "FAILED" }]);
    expect(diff.stillFailing.map((x) => x.scenarioKey)).toEqual(["c"]);
    expect(diff.stillPassing.map((x) => x.scenarioKey)).toEqual(["d"]);
    expect(diff.added.map((x) => `${x.scenarioKey}/${x.modelLabel}`)).toEqual(["new/m", "a/n"]);
    expect(diff.removed).toEqual([{ scenarioKey: "gone", modelLabel: "m", before: "PASSED", after: null }]);
  });

  it("lists a pair not scored yet in either run as unscored, so every pair is accounted for", () => {
    const diff = diffRuns("r1", "r2", [r("a", "m", "failed"), r("b", "m", "pending")], [r("a", "m", "pending"), r("b", "m", "passed")]);
    expect([...diff.fixed, ...diff.regressed, ...diff.stillFailing, ...diff.stillPassing]).toEqual([]);
    expect(diff.unscored).toEqual([
      { scenarioKey: "a", modelLabel: "m", before: "FAILED", after: "PENDING" },
      { scenarioKey: "b", modelLabel: "m", before: "PENDING", after: "PASSED" },
    ]);
  });
});

describe("canonicalJson", () => {
  it("writes the same text whatever the key order", () => {
    expect(canonicalJson({ b: [1, { y: 2, x: 1 }], a: null })).toBe(canonicalJson({ a: null, b: [1, { x: 1, y: 2 }] }));
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });
});

describe("downloadName", () => {
  it("makes the evaluation name a file name", () => {
    expect(downloadName("support_desk/triage/smoke", 3, "md")).toBe("support_desk-triage-smoke-run-3.md");
    expect(downloadName('Orders "EU" / v2', 1, "json")).toBe("Orders_EU_-_v2-run-1.json");
  });
});
