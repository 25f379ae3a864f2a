// What a report document's figures are when computed from its results, by the Report that
// renders it: per-model summaries, criterion statistics, recommendations and fix items. A
// document imported from elsewhere carries its own copies of these (summary_by_model or
// `models`, criteria, fix_items), which nothing has checked against its results; every read of an
// imported run takes them from here instead, so its summaries, ranking and fix items agree with
// its Markdown and HTML (which the Report renders from the results) whatever the document says.
import { Report } from "./report.js";
import type { ReportDocument } from "./html/index.js";
import type { CriterionStats, FixItem, ModelSummary, Recommendation } from "./reportTypes.js";

export interface DerivedFigures {
  /** In the report's model order (labelsInRecordedOrder), one row per model, a zero row for a model with no result. */
  summary_by_model: Record<string, ModelSummary>;
  criteria: Record<string, CriterionStats | Record<string, CriterionStats>>;
  recommendations: Recommendation[];
  fix_items: FixItem[];
}

/**
 * The figures `doc`'s results give, as `Report.fromStoredJSON(doc)` computes them (a pure
 * function of the document: no judge, no clock, no resampling). Throws as it does for results it
 * cannot rebuild.
 */
export function derivedFromJSON(doc: ReportDocument): DerivedFigures {
  // As stored: the documents read here are imported runs', some under older rules that
  // Report.fromJSON refuses (a threshold of 70), whose figures must not change on a rebuild.
  // Without its comparison, which none of these figures reads: a run imported before the import
  // checked comparisons may hold one no page can show, and its figures must still be derived.
  const report = Report.fromStoredJSON(doc, { comparison: null });
  return {
    summary_by_model: report.summaryByModel,
    criteria: report.criterionScores,
    recommendations: report.recommendations,
    fix_items: report.fixItems,
  };
}

/**
 * derivedFromJSON, or null for results the Report cannot rebuild: only a document imported
 * before the import checked its results, whose Markdown answers CONFLICT; its reader falls back.
 */
export function derivedFromJSONOrNull(doc: ReportDocument): DerivedFigures | null {
  try {
    return derivedFromJSON(doc);
  } catch {
    return null;
  }
}
