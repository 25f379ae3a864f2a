import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// scripts/testSummary.mjs writes the line CI reads; these runs feed it vitest-shaped reports.
const script = join(import.meta.dirname, "../../scripts/testSummary.mjs");

function summarize(report: object | undefined, ...args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "verdict-summary-"));
  const path = join(dir, "results.json");
  if (report) writeFileSync(path, JSON.stringify(report));
  const run = spawnSync(process.execPath, [script, path, ...args], { encoding: "utf8" });
  return { status: run.status, stdout: run.stdout.trim(), stderr: run.stderr };
}

const passingFile = { name: "a.test.ts", status: "passed", message: "", assertionResults: [{ status: "passed" }] };

describe("testSummary", () => {
  it("prints passed and failed counts and exits 0 when all passed", () => {
    const result = summarize({ numPassedTests: 3, numFailedTests: 0, success: true, testResults: [passingFile] });
    expect(result).toMatchObject({ status: 0, stdout: "3 passed, 0 failed" });
  });

  it("adds skipped and todo tests, and exits 1 on a failed test", () => {
    const report = {
      numPassedTests: 2,
      numFailedTests: 1,
      numPendingTests: 1,
      numTodoTests: 1,
      success: false,
      testResults: [{ ...passingFile, status: "failed", assertionResults: [{ status: "failed" }] }],
    };
    expect(summarize(report)).toMatchObject({ status: 1, stdout: "2 passed, 1 failed, 2 skipped" });
  });

  it("counts a file that failed outside any test (import error) as one failure", () => {
    const broken = { name: "b.test.ts", status: "failed", message: "Cannot find module", assertionResults: [] };
    const result = summarize({ numPassedTests: 3, numFailedTests: 0, success: false, testResults: [passingFile, broken] });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("3 passed, 1 failed");
    expect(result.stderr).toContain("b.test.ts failed outside any test: Cannot find module");
  });

  it("fails when the test command failed even though every test passed", () => {
    const result = summarize({ numPassedTests: 1, numFailedTests: 0, success: true, testResults: [passingFile] }, "--status", "2");
    expect(result).toMatchObject({ status: 1, stdout: "1 passed, 0 failed" });
  });

  it("fails with the command's status when there is no report", () => {
    const result = summarize(undefined, "--status", "3");
    expect(result.status).toBe(3);
    expect(result.stderr).toContain("no test report");
  });
});
