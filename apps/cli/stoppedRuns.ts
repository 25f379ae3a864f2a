// `verdict start` stopped (Ctrl-C, SIGTERM) while runs it waits for were going. Its worker is
// stopped first, letting the jobs in flight finish, which on the embedded default often finishes
// the run. A run that finished so gets its report under reports/ here, as a finished start writes
// it: no later start would, as the next start takes up only runs still PENDING or RUNNING
// (exampleRun.ts unfinishedRuns), and those it names, finishes and writes the reports of. A run
// whose reports the start had begun writing before the stop had finished before it: its write is
// waited for, not begun again (runReports.ts), and the run said finished.
import { loadAggregate, runAggregate, runStream, type EventStore } from "@verdict/domain";
import type { RunRef } from "./exampleRun.js";
import type { Io } from "./io.js";
import type { ReportPaths, RunReports } from "./runReports.js";

export interface RunInFlight {
  evaluation: { id: string; name: string };
  run: RunRef;
}

interface StoppedRunsDeps {
  /** The log itself, not the read models: a run's last events may not be projected yet. */
  store: EventStore;
  /** The start's report writes: those begun before the stop, and where new ones go. */
  reports: RunReports;
  /** Stops the worker, letting the jobs in flight finish: what the runs are once it returns is what this start leaves. */
  stopWorker: () => Promise<void>;
}

/** One line per run in flight: its report when it finished before or as the worker stopped, else what becomes of it. */
export async function reportRunsAtStop(runs: readonly RunInFlight[], deps: StoppedRunsDeps, io: Io): Promise<void> {
  if (runs.length === 0) return;
  await deps.stopWorker();
  for (const run of runs) io.out(await stoppedRunLine(run, deps));
}

async function stoppedRunLine({ evaluation, run }: RunInFlight, deps: StoppedRunsDeps): Promise<string> {
  const named = `run #${run.number} (${run.id})`;
  const begun = deps.reports.begun(run.id);
  if (begun) return reportLine(named, "finished", run.id, begun);
  const { state } = await loadAggregate(deps.store, runAggregate, runStream(run.id));
  if (state.status === "failed") return `${named} failed: \`verdict report ${run.id}\` gives its report`;
  if (state.status !== "complete") return `${named} is unfinished: the next start finishes it and writes its report under ${deps.reports.dir}`;
  return reportLine(named, "finished as the worker stopped", run.id, deps.reports.write(evaluation, run));
}

async function reportLine(named: string, finished: string, runId: string, written: Promise<ReportPaths>): Promise<string> {
  try {
    const { htmlPath, markdownPath } = await written;
    return `${named} ${finished}; report: ${htmlPath} and ${markdownPath}`;
  } catch (error) {
    return `${named} ${finished}, but its report was not written (${(error as Error).message}): \`verdict report ${runId}\` gives it`;
  }
}
