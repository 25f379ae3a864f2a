// Public surface of domain/diagnosis: `Diagnosis.diagnose(...)` (one fault per failing result, in
// the guide's order), the judge hooks (`Diagnosis.shouldRefine`, `Diagnosis.refine`), the Runner's
// `Diagnosis.judgeUnavailable`, the fault list and the phrasings the checks read.
//
//   const diagnosis = Diagnosis.diagnose({ scenario, replay, scores, score, availableTools: ["lookup_order"] });
//   diagnosis?.fault   // "expected_tool_not_called"
//   const refined = Diagnosis.refine(diagnosis, await judge.recommend(...));
import { diagnose, judgeUnavailable, refine, shouldRefine } from "./diagnose.js";
import { CAPABILITY_REFUSALS, SPECIFIC_CLAIMS } from "./phrasings.js";
import { DEFAULT_REFINE_FAULTS, FAULTS } from "./types.js";

export const Diagnosis = {
  diagnose,
  refine,
  shouldRefine,
  judgeUnavailable,
  FAULTS,
  DEFAULT_REFINE_FAULTS,
  CAPABILITY_REFUSALS,
  SPECIFIC_CLAIMS,
} as const;

// DEFAULT_REFINE_FAULTS is public as `Diagnosis.DEFAULT_REFINE_FAULTS` (the Runner re-exports it
// under its own name, so it is not exported here a second time).
export { FAULTS } from "./types.js";
export type { Fault, Evidence, SuggestedTool, JudgeRefinement, DiagnosisResult, DiagnoseInput } from "./types.js";
