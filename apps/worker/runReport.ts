// A run's Report from its events alone: the frozen selection (RunStarted), each pair's recorded
// replay and score, and — once recorded — the verdict and the comparison, used as given. The
// same events give the same Report: no agent, no judge, no resampling is involved in a rebuild.
import {
  Replay,
  Report,
  Result,
  Scenario,
  addedJudgeUsage,
  judgeUsageFromExchanges,
  scoresInScorerOrder,
  type ComparisonJSON,
  type DiagnosisResult,
  type EventData,
  type Release,
  type ReportResult,
  type VerdictJudge,
} from "@verdict/domain";

// The recorded exchanges' usage fields may be null where unknown; the usage readers take them so.
type ExchangesInput = Parameters<typeof judgeUsageFromExchanges>[0];

/** The recorded release as the Report reads it (absent parts left out). */
export function releaseOf(release: EventData<"RunStarted">["release"]): Release | null {
  if (!release) return null;
  const out: Release = { digest: release.digest };
  if (release.revision) out.revision = release.revision;
  if (release.label) out.label = release.label;
  return out;
}

/**
 * The criteria a run scores with, in scoring order: those it froze at its start, then the KPIs a
 * judge_defined run settled before its first pair was scored (KpiAuthoringRecorded).
 */
export function runCriteriaOf(started: EventData<"RunStarted">, kpiAuthoring: EventData<"KpiAuthoringRecorded"> | null | undefined): EventData<"RunStarted">["criteria"] {
  return kpiAuthoring?.criteria.length ? [...started.criteria, ...kpiAuthoring.criteria] : started.criteria;
}

export interface RunRecord {
  started: EventData<"RunStarted">;
  /** How a judge_defined run settled its KPIs (null or absent: it did not need to). */
  kpiAuthoring?: EventData<"KpiAuthoringRecorded"> | null;
  /** By pair index n. */
  replays: ReadonlyMap<number, EventData<"ReplayRecorded">>;
  scored: ReadonlyMap<number, EventData<"ResultScored">>;
  verdict?: EventData<"VerdictRecorded"> | null;
  comparison?: EventData<"ComparisonRecorded"> | null;
}

/** A scored pair as the core's Result, exactly as it was scored (judge usage from its exchanges). */
export function resultFromEvents(
  scenario: Scenario,
  spec: { label: string; provider: string; model: string },
  replayed: EventData<"ReplayRecorded">,
  scored: EventData<"ResultScored">,
  criterionKeys: readonly string[] = [],
): Result {
  const metadata = { ...replayed.replay.metadata };
  // The Runner put the judge's usage on the replay's metadata after the replay was recorded,
  // unless the replay carried one of its own (an agent's or a host's record), which wins: the one
  // rule for where a result's judge usage comes from, as every report here has been rebuilt with
  // (so a report of a run recorded before keeps its bytes). The read model counts it the same way
  // (apps/projector usage.ts resultJudge), so Run.usage says what this report says.
  const usage = addedJudgeUsage(metadata, scored.judge_exchanges as unknown as ExchangesInput);
  if (usage) metadata.judge_usage = usage;
  return new Result({
    scenario,
    spec,
    replay: Replay.recorded({ ...replayed.replay, metadata }),
    // In the order they were scored in: read back from jsonb, their keys are sorted by length.
    scores: scoresInScorerOrder(scored.scores, criterionKeys),
    score: scored.score,
    status: scored.status,
    diagnosis: (scored.diagnosis as DiagnosisResult | null) ?? null,
  });
}

/** Every scored pair, in run order (scenario-major, models in selection order). */
export function runResults(record: RunRecord): Result[] {
  const { started } = record;
  const scenarios = started.scenarios.map((s) => Scenario.fromJSON(s));
  const results: Result[] = [];
  const models = started.models.length;
  const criterionKeys = runCriteriaOf(started, record.kpiAuthoring).map((criterion) => criterion.key);
  for (let n = 0; n < scenarios.length * models; n++) {
    const scored = record.scored.get(n);
    const replayed = record.replays.get(n);
    if (!scored || !replayed) continue;
    results.push(resultFromEvents(scenarios[Math.floor(n / models)], started.models[n % models], replayed, scored, criterionKeys));
  }
  return results;
}

/**
 * The run's Report. With a `judge` and no recorded verdict, `report.judgeVerdict()` may ask it;
 * a recorded verdict and comparison are always used as given. A failed or running run's report
 * (`failure`, `inProgress`) makes up neither: they are decided when a run completes.
 */
export function reportFromRun(
  record: RunRecord,
  options: {
    judge?: VerdictJudge | null;
    results?: Result[];
    /** A failed run's reason (RunFailed). */
    failure?: string | null;
    /** A run still going: the report says so, and how many results it will have in all. */
    inProgress?: boolean;
  } = {},
): Report {
  const { started } = record;
  const verdict = record.verdict;
  // The judge calls no result owns: the KPIs' define call, then the verdict's.
  const runExchanges = [record.kpiAuthoring?.judge_exchange, verdict?.judge_exchange].filter((exchange) => exchange != null);
  return new Report({
    // Result satisfies ReportResult at run time; its ToolCall type is looser than the report's.
    results: (options.results ?? runResults(record)) as unknown as ReportResult[],
    models: started.models,
    criteria: runCriteriaOf(started, record.kpiAuthoring),
    judge: options.judge ?? null,
    // The verdict records the judge the run was actually scored with (null: rules only).
    judgeLabel: verdict ? verdict.judge_label : started.judge_label,
    threshold: started.threshold,
    metadata: { ...started.metadata },
    release: releaseOf(started.release),
    // The agent the run froze: `agent_name` and the fix items' wording, as a local run's report.
    agentName: started.agent,
    ...(verdict ? { verdict: verdict.verdict } : {}),
    ...(record.comparison ? { comparison: record.comparison.comparison as unknown as ComparisonJSON } : {}),
    judgeUsage: runExchanges.length ? judgeUsageFromExchanges(runExchanges as unknown as ExchangesInput) : null,
    failure: options.failure ?? null,
    // Said once, in the header: the authoring failure is the run's, not any result's.
    kpiFailure: record.kpiAuthoring?.outcome === "failed" ? record.kpiAuthoring.message : null,
    inProgress: options.inProgress ? { total: started.scenarios.length * started.models.length } : null,
  });
}
