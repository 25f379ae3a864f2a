// Public surface of domain/report: the Report (summary, criteria statistics, recommendations,
// fix items, verdict, comparison, costs; Markdown, JSON and HTML, and the public Markdown
// pieces) and the shapes it reads and writes.
export { Report } from "./report.js";
export { derivedFromJSON, derivedFromJSONOrNull, type DerivedFigures } from "./derivedFromJson.js";
export {
  SUMMARY_EVIDENCE_KEYS, SUMMARY_METADATA_KEYS, TOOL_NOTE_LIMIT, summaryDiagnosis, summaryReplay, summaryToolCall, type ReplayDocumentLike,
} from "./summaryInputs.js";
export { comparisonInModelOrder, labelsInRecordedOrder, labelsInResultOrder } from "./modelOrder.js";
export { summaryInReportOrder } from "./summary.js";
export { rankingInReportOrder } from "./rankingOrder.js";
export type { ReportOptions, VerdictJudge } from "./report.js";
export type {
  CriterionStats, FixAction, FixItem, FixTool, InProgress, ModelSummary, Recommendation, Release, ReportLinks, ReportModel,
  ReportResult, RunCosts, ScenarioCost, ToolResolver, ToolServer, Verdict,
} from "./reportTypes.js";
export type { ReportDocument, Theme } from "./html/index.js";
