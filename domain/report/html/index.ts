// Public surface of the HTML report: the renderer Report.toHtml() calls, and the document type
// it reads (what Report.toJSON() returns).
export { renderReportHtml } from "./renderReportHtml.js";
export type {
  ReportDocument,
  ResultDoc,
  ModelSummaryDoc,
  FixItemDoc,
  ComparisonDoc,
  VerdictDoc,
  JudgeUsageDoc,
  ReportMarkdown,
  RenderOptions,
  Theme,
} from "./reportDocument.js";
export { THEMES } from "./reportDocument.js";
export { escapeHtml } from "./escape.js";
export { LIGHT, DARK, tokensCss } from "./designTokens.js";
