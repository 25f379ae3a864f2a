import "reflect-metadata";
import { describe, expect, it } from "vitest";
import { importedResultStatusOf, ResultStatus, resultStatusOf, RunStatus, runStatusOf } from "./enums.js";

describe("runStatusOf", () => {
  it("reads the read models' values and a run history's", () => {
    expect(["PENDING", "RUNNING", "COMPLETED", "FAILED"].map(runStatusOf)).toEqual([RunStatus.PENDING, RunStatus.RUNNING, RunStatus.COMPLETED, RunStatus.FAILED]);
    expect(["running", "completed", "failed"].map(runStatusOf)).toEqual([RunStatus.RUNNING, RunStatus.COMPLETED, RunStatus.FAILED]);
  });

  it("refuses a value no run can have instead of answering PENDING", () => {
    expect(() => runStatusOf("COMPLETE")).toThrow('unknown run status "COMPLETE"');
    expect(() => runStatusOf("")).toThrow("unknown run status");
    expect(() => runStatusOf("constructor")).toThrow("unknown run status");
  });
});

describe("resultStatusOf", () => {
  it("reads the read models' values", () => {
    expect(["pending", "passed", "failed", "errored"].map(resultStatusOf)).toEqual([ResultStatus.PENDING, ResultStatus.PASSED, ResultStatus.FAILED, ResultStatus.ERRORED]);
  });

  it("refuses a value no pair can have instead of answering PENDING", () => {
    expect(() => resultStatusOf("skipped")).toThrow('unknown result status "skipped"');
  });
});

describe("importedResultStatusOf", () => {
  it("keeps an imported report's status as the projector does: anything but passed or failed is errored", () => {
    expect(["passed", "failed", "errored"].map(importedResultStatusOf)).toEqual([ResultStatus.PASSED, ResultStatus.FAILED, ResultStatus.ERRORED]);
    expect(["skipped", "PASSED", "", null, undefined, 1].map(importedResultStatusOf)).toEqual(Array(6).fill(ResultStatus.ERRORED));
  });
});
