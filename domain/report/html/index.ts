// Public surface of the HTML report: the renderer Report.toHtml() calls, and the document type
// it reads (what Report.toJSON() returns).
export { renderReportHtml } from "./renderReportHtml.js";
export type { ReportDocument, ResultDoc, Theme } from "./reportDocument.js";
export { THEMES } from "./reportDocument.js";
