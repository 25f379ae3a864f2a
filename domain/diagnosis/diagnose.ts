// Explains why a scenario did not pass and what would fix it (guide "Faults", reference-core §9).
// Exactly one fault per failing result, the most mechanical cause first, so a run that crashed is
// a run_error even if its empty answer would also fail a content check. Returns null for a pass.
import { isBlank } from "../support/blank.js";
import { DiagnosisContext } from "./context.js";
import { CHECKS } from "./faults.js";
import type { DiagnoseInput, DiagnosisResult, Fault, JudgeRefinement } from "./types.js";
import { DEFAULT_REFINE_FAULTS } from "./types.js";

export function diagnose(input: DiagnoseInput): DiagnosisResult | null {
  const context = new DiagnosisContext(input);
  for (const check of CHECKS) {
    const found = check(context);
    if (found) return found;
  }
  return null;
}

/**
 * The hook a judge fills: whether a fault is worth a refinement call (the Runner also counts
 * calls against its limit), and the diagnosis with the judge's reply folded in. A usable reply
 * is kept under `judge`; its non-blank recommendation (stripped) replaces the evidence-based one.
 */
export function shouldRefine(fault: Fault, refineFaults: readonly string[] = DEFAULT_REFINE_FAULTS): boolean {
  return refineFaults.includes(fault);
}

export function refine(diagnosis: DiagnosisResult, refinement: JudgeRefinement | null | undefined): DiagnosisResult {
  if (!refinement) return diagnosis;
  const recommendation = refinement.recommendation;
  return {
    ...diagnosis,
    recommendation: typeof recommendation === "string" && !isBlank(recommendation) ? recommendation.trim() : diagnosis.recommendation,
    judge: refinement,
  };
}

/**
 * The Runner's `judge_unavailable` diagnosis (with require-judge-scores): the judge grades that
 * were asked for and came back unusable. Null when none is missing.
 */
export function judgeUnavailable(unscoredKeys: readonly string[]): DiagnosisResult | null {
  if (unscoredKeys.length === 0) return null;
  return {
    fault: "judge_unavailable",
    summary: `The evaluation judge did not return a usable score for ${unscoredKeys.join(", ")}.`,
    recommendation:
      "Check the judge's credentials, model availability and JSON response, then re-run this evaluation. " +
      "The available rule scores do not establish answer quality.",
    evidence: { unscored_criteria: [...unscoredKeys] },
  };
}
