import "reflect-metadata";
import { expect, it } from "vitest";
import type { EventData } from "@verdict/domain";
import { importedGrades } from "./importedAudit.js";

it("grades a result of a report imported before statuses were checked as the run's results keep it (errored), not PENDING", () => {
  const results = [
    { scenario_key: "a", label: "m", status: "passed" },
    { scenario_key: "b", label: "m", status: "skipped" },
    { scenario_key: "c", label: "m", status: "PASSED" },
    { scenario_key: "d", label: "m" },
  ];
  const imported = { report: { results } } as unknown as EventData<"ReportImported">;
  expect(importedGrades(imported, []).map((g) => g.status)).toEqual(["PASSED", "ERRORED", "ERRORED", "ERRORED"]);
});
