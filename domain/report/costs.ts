// The report's cost views, all computed by domain/cost (the agent's spend and the judge's are
// kept apart there); re-exported under the names the report uses.
export {
  scenarioCosts as computeScenarioCosts,
  judgeUsage as computeJudgeUsage,
  runCosts as computeRunCosts,
} from "../cost/index.js";
import type { judgeUsage } from "../cost/index.js";
export type JudgeUsageSummary = NonNullable<ReturnType<typeof judgeUsage>>;
