// Prints the closing line CI reads — `N passed, N failed` (plus `, N skipped` when any) —
// from vitest's JSON report, and exits non-zero when a test or a whole file failed, when the
// report is missing, or when the test command itself failed (pass its status with --status).
// Usage: node scripts/testSummary.mjs .verdict/test-results.json [--status <exit code>]
import { existsSync, readFileSync } from "node:fs";

const args = process.argv.slice(2);
const statusIndex = args.indexOf("--status");
const commandStatus = statusIndex === -1 ? 0 : Number(args[statusIndex + 1]);
const reportPath = args.find((arg, index) => !arg.startsWith("--") && (statusIndex === -1 || index !== statusIndex + 1));

if (!reportPath || !existsSync(reportPath)) {
  console.error(`testSummary: no test report at ${reportPath ?? "(no path given)"}; the test command exited ${commandStatus}`);
  process.exit(commandStatus || 1);
}

const report = JSON.parse(readFileSync(reportPath, "utf8"));
const files = report.testResults ?? [];
// A file that fails before running (import error, failing beforeAll) has no failed assertion
// of its own, so it would vanish from the counts; count it as one failure.
const brokenFiles = files.filter(
  (file) => file.status === "failed" && !(file.assertionResults ?? []).some((test) => test.status === "failed"),
);
for (const file of brokenFiles) {
  console.error(`testSummary: ${file.name} failed outside any test: ${(file.message ?? "").split("\n")[0]}`);
}

const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + brokenFiles.length;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);

if (commandStatus !== 0 && failed === 0) {
  console.error(`testSummary: the test command exited ${commandStatus} although no test failed`);
}
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || commandStatus !== 0 || report.success === false ? 1 : 0);
