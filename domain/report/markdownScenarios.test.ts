// One scenario's <details> block in the Markdown report, as a reader of a pasted pull request
// sees it: its summary's pass count, each model's row (tools, cost), and an errored answer's error.
import { describe, expect, it } from "vitest";
import { checkGfm, splitCells } from "./gfmCheck.js";
import { Report } from "./report.js";
import { fakeResult, model } from "./testing.js";

const rowOf = (markdown: string, label: string): string => {
  const row = markdown.split("\n").find((line) => line.startsWith(`| ${label} |`) || line.startsWith(`| \`${label}\` |`));
  if (!row) throw new Error(`no row for ${label} in:\n${markdown}`);
  return row;
};

describe("a scenario's Markdown block", () => {
  it("counts only passed results in its summary: one passed and one errored read 1/2 passed", () => {
    const report = new Report({
      results: [fakeResult({ key: "a", label: "m1" }), fakeResult({ key: "a", label: "m2", score: 0, error: "connect ECONNREFUSED" })],
      models: [model("m1"), model("m2")],
    });
    expect(report.scenarioMarkdown("a")).toMatch(/ · 1\/2 passed<\/summary>/);
  });

  it("shows an errored result's error after its answer", () => {
    const report = new Report({ results: [fakeResult({ key: "a", label: "m1", score: 0, error: "connect ECONNREFUSED 127.0.0.1:8080" })], models: [model("m1")] });
    expect(report.scenarioMarkdown("a")).toContain("**Error:** connect ECONNREFUSED 127.0.0.1:8080");
  });

  it("keeps the table's columns when the one tool called has a | in its name", () => {
    const report = new Report({
      results: [fakeResult({ key: "a", label: "m1", toolCalls: [{ name: "a|b", arguments: {} }] })],
      models: [model("m1")],
    });
    const block = report.scenarioMarkdown("a");
    expect(checkGfm(block)).toEqual([]);
    expect(splitCells(rowOf(block, "m1"))).toHaveLength(6);
  });

  it("marks an estimated result's cost with ~ in its row", () => {
    const report = new Report({ results: [fakeResult({ key: "a", label: "m1", cost: 0.0123, costSource: "estimated" })], models: [model("m1")] });
    expect(rowOf(report.scenarioMarkdown("a"), "m1")).toMatch(/\| ~\$0\.0123 \|$/);
  });
});
