// The example evaluation `verdict start` runs through its own API, as a user would: import the
// catalog (a no-op when unchanged), reuse or create the evaluation from its set, start a run
// across the models, follow the runProgress subscription, and save the HTML and Markdown reports.
// Runs an earlier start left unfinished (killed mid-run) are dispatched again by this start's
// worker: they are named when the new run starts, and their reports saved once they are done.
// Each run it waits for is told to `onRunInFlight`, so a start stopped mid-run can report those
// that finished as it stopped (stoppedRuns.ts); reports go through the start's RunReports, so a
// stop while they are being written waits for them rather than writing them again.
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCatalogFile } from "./catalogFile.js";
import { CliError, EXIT } from "./errors.js";
import type { GqlClient } from "./gqlClient.js";
import type { Io } from "./io.js";
import { leftUnfinished, type ListedRun } from "./leftUnfinished.js";
import { runFailureLine } from "./runFailure.js";
import { RunReports } from "./runReports.js";
import { loadToolsFile, type ToolRoster } from "./toolsFile.js";

export const EXAMPLE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../examples/support");
export const EXAMPLE_SET = "support/support/smoke";
/** The product agent of that set in examples/support/catalog.yaml: the evaluation is created for it. */
const EXAMPLE_AGENT = "SupportAgent";
export const EXAMPLE_MODELS = ["gpt-5-mini", "claude-sonnet-4-5", "ollama/qwen3:8b"];

const PROGRESS_SUBSCRIPTION = "subscription { runProgress(runId: $runId) { completed total passed failed errored status latestResult { scenarioKey modelLabel status fault } } }";

interface Progress {
  completed: number;
  total: number;
  passed: number;
  failed: number;
  errored: number;
  status: string;
  latestResult: { scenarioKey: string; modelLabel: string; status: string; fault: string | null } | null;
}

interface ExampleRunOutcome {
  evaluationId: string;
  evaluationName: string;
  runId: string;
  number: number;
  status: string;
  htmlPath: string;
  markdownPath: string;
  /** Runs an earlier start left unfinished: their reports when they finished too, else their state. */
  earlier: EarlierRun[];
}

export interface RunRef {
  id: string;
  number: number;
  status: string;
}

export interface EarlierRun extends RunRef {
  htmlPath: string;
  markdownPath: string;
}

/**
 * Read as `verdict catalogs import` reads a file, so a refusal names it (bytes that are not UTF-8
 * were sent as U+FFFD and stored); the canonical text is sent, whose digest is the file's.
 */
export async function importCatalog(client: Pick<GqlClient, "request">, io: Io, path = join(EXAMPLE_DIR, "catalog.yaml")): Promise<void> {
  const yaml = loadCatalogFile(path).toYaml();
  const { importCatalog: imported } = await client.request<{ importCatalog: { key: string; digest: string; changed: boolean; scenarioCount: number } }>(
    "mutation ($yaml: String!, $path: String) { importCatalog(yaml: $yaml, sourcePath: $path) { key digest changed scenarioCount } }",
    { yaml, path: relative(process.cwd(), path) || path },
  );
  io.out(`catalog ${imported.key}: ${imported.changed ? "imported" : "unchanged"} (${imported.scenarioCount} scenarios, digest ${imported.digest.slice(0, 12)})`);
}

interface EvaluationPage {
  evaluations: { edges: Array<{ node: { id: string; name: string; agent: string; archived: boolean } }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

/**
 * The ids of the example set's evaluations, wherever they are in the list: its name is the
 * agent's to keep (names are unique per agent), so creating a second one would be refused. Older
 * homes may hold several (created before names were reserved, some archived): createEvaluation
 * answers the oldest of them (adoptEvaluationName.ts), so any of them answered is a reuse.
 */
async function findExampleEvaluations(client: GqlClient): Promise<Set<string>> {
  const found = new Set<string>();
  let after: string | null = null;
  do {
    const { evaluations }: EvaluationPage = await client.request<EvaluationPage>(
      "query ($after: String) { evaluations(first: 20, after: $after, archived: null) { edges { node { id name agent archived } } pageInfo { hasNextPage endCursor } } }",
      { after },
    );
    for (const { node } of evaluations.edges) if (node.name === EXAMPLE_SET && node.agent === EXAMPLE_AGENT) found.add(node.id);
    after = evaluations.pageInfo.hasNextPage ? evaluations.pageInfo.endCursor : null;
  } while (after);
  return found;
}

/**
 * createEvaluation from the set both creates the example's evaluation and, when it exists,
 * syncs it to the catalog as imported (a changed examples/ catalog: dropped scenarios disabled,
 * changed prompts updated) and answers it; an archived one is reused too (starting a run
 * unarchives it). Compare models are not sent to an existing one: a home whose evaluation was
 * made with other models keeps them (the run names its own).
 */
async function exampleEvaluation(client: GqlClient, io: Io): Promise<{ id: string; name: string }> {
  const existing = await findExampleEvaluations(client);
  const { createEvaluation } = await client.request<{ createEvaluation: { evaluationId: string } }>(
    "mutation ($input: CreateEvaluationInput!) { createEvaluation(input: $input) { evaluationId } }",
    { input: { fromCatalogSet: EXAMPLE_SET, ...(existing.size ? {} : { compareModels: EXAMPLE_MODELS }) } },
  );
  const id = createEvaluation.evaluationId;
  io.out(existing.has(id) ? `evaluation ${EXAMPLE_SET}: reusing ${id} (synced to the catalog)` : `evaluation ${EXAMPLE_SET}: created ${id}`);
  return { id, name: EXAMPLE_SET };
}

function progressLine(p: Progress): string {
  const latest = p.latestResult
    ? ` · latest ${p.latestResult.scenarioKey} × ${p.latestResult.modelLabel}: ${p.latestResult.status.toLowerCase()}${p.latestResult.fault ? ` (${p.latestResult.fault})` : ""}`
    : "";
  return `  [${p.completed}/${p.total}] ${p.passed} passed · ${p.failed} failed · ${p.errored} errored · ${p.status}${latest}`;
}

/** The evaluation's runs an earlier start left unfinished (leftUnfinished.ts), oldest first. */
async function unfinishedRuns(client: GqlClient, evaluationId: string, goingAtStart: ReadonlySet<string>): Promise<{ engine: RunRef[]; external: RunRef[] }> {
  const { evaluation } = await client.request<{ evaluation: { runs: { edges: Array<{ node: ListedRun }> } } }>(
    "query ($id: ID!) { evaluation(id: $id) { runs(first: 100) { edges { node { id number status external } } } } }",
    { id: evaluationId },
  );
  return leftUnfinished(evaluation.runs.edges.map(({ node }) => node).reverse(), goingAtStart);
}

/** Each earlier run as it stands once this start's run is done: completed ones get their reports saved. */
async function settleEarlierRuns(client: GqlClient, evaluation: { id: string; name: string }, runs: RunRef[], reports: RunReports): Promise<EarlierRun[]> {
  const settled: EarlierRun[] = [];
  for (const run of runs) {
    const { run: now } = await client.request<{ run: RunRef }>("query ($id: ID!) { run(id: $id) { id number status } }", { id: run.id });
    settled.push(now.status === "COMPLETED" ? { ...now, ...(await reports.write(evaluation, now)) } : { ...now, htmlPath: "", markdownPath: "" });
  }
  return settled;
}

/** The example agent's tool roster (examples/support/tools.yaml), sent with startRun. */
function exampleTools(): Promise<ToolRoster> {
  return loadToolsFile(join(EXAMPLE_DIR, "tools.yaml"), "example tools");
}

interface ExampleRunOptions {
  models: string[];
  reportsDir: string;
  /** The runs going when this start began (runsGoingNow), before its worker could finish one an earlier start left. */
  goingAtStart: ReadonlySet<string>;
  /** Told each run this start waits for (the earlier starts' unfinished ones, then its own) as soon as it is known. */
  onRunInFlight?: (evaluation: { id: string; name: string }, run: RunRef) => void;
  /** Told this start's own run as it ends (COMPLETED or FAILED), before any report is written. */
  onRunEnded?: (run: RunRef) => void;
  /** Where the reports are written, each run's once (default: a RunReports of its own on reportsDir). */
  reports?: RunReports;
}

export async function runExample(client: GqlClient, io: Io, options: ExampleRunOptions): Promise<ExampleRunOutcome> {
  await importCatalog(client, io);
  const evaluation = await exampleEvaluation(client, io);
  const { engine: unfinished, external } = await unfinishedRuns(client, evaluation.id, options.goingAtStart);
  for (const run of unfinished) {
    io.out(`run #${run.number} (${run.id}) was left unfinished by an earlier start: it is finished too, its report saved once it is done`);
    options.onRunInFlight?.(evaluation, run);
  }
  for (const run of external) {
    io.out(`run #${run.number} (${run.id}) is an external run, still ${run.status}: its host records its replays and completes it (completeExternalRun), not this start`);
  }
  const { startRun } = await client.request<{ startRun: { runId: string; number: number } }>(
    "mutation ($id: ID!, $models: [String!], $tools: JSON) { startRun(evaluationId: $id, selection: { models: $models }, tools: $tools) { runId number } }",
    { id: evaluation.id, models: options.models, tools: await exampleTools() },
  );
  options.onRunInFlight?.(evaluation, { id: startRun.runId, number: startRun.number, status: "PENDING" });
  io.out(`run #${startRun.number} started (${startRun.runId}) across ${options.models.join(", ")}`);
  let last: Progress | null = null;
  await client.subscribe<{ runProgress: Progress }>(PROGRESS_SUBSCRIPTION.replace("subscription {", "subscription ($runId: ID!) {"), { runId: startRun.runId }, ({ runProgress }) => {
    if (last && last.completed === runProgress.completed && last.status === runProgress.status) return;
    last = runProgress;
    io.out(progressLine(runProgress));
  });
  const finished = last as Progress | null;
  if (!finished || (finished.status !== "COMPLETED" && finished.status !== "FAILED")) {
    throw new CliError(`the progress subscription ended before run ${startRun.runId} did`, EXIT.failed);
  }
  const run: RunRef = { id: startRun.runId, number: startRun.number, status: finished.status };
  options.onRunEnded?.(run);
  const reports = options.reports ?? new RunReports(client, options.reportsDir);
  // This run's reports first: a stop from here on finds its write begun and says it finished.
  const own = finished.status === "COMPLETED" ? await reports.write(evaluation, run) : { htmlPath: "", markdownPath: "" };
  const earlier = await settleEarlierRuns(client, evaluation, unfinished, reports);
  return { evaluationId: evaluation.id, evaluationName: evaluation.name, runId: run.id, number: run.number, status: run.status, earlier, ...own };
}

/** The run's run_error pairs: how many, and the first one's diagnosis. */
interface RunErrors {
  totalCount: number;
  edges: Array<{ node: { diagnosis: { summary?: unknown } | null } }>;
}

/** The first run_error's cause (its diagnosis summary), as `verdict run` names it. */
function firstCause(runErrors: RunErrors): string | null {
  const summary = runErrors.edges[0]?.node.diagnosis?.summary;
  return typeof summary === "string" ? summary : null;
}

interface RunSummary {
  run: {
    status: string;
    errorMessage: string | null;
    progress: { total: number };
    runErrors: RunErrors;
    verdict: { winner: string | null; rationale: string | null } | null;
    models: Array<{ label: string; summary: { passRate: number | null; avgScore: number | null; } | null }>;
  };
}

/**
 * Per-model pass rates and the verdict, read back from the API; false when the run failed, or
 * when no pair got as far as an answer (every one a run_error: the agent was unreachable or
 * answered nothing), as `verdict run` counts it a failed run.
 */
export async function printRunSummary(client: GqlClient, io: Io, runId: string): Promise<boolean> {
  const { run } = await client.request<RunSummary>(
    `query ($id: ID!) { run(id: $id) { status errorMessage progress { total } runErrors: results(fault: "run_error", first: 1) { totalCount edges { node { diagnosis } } }
      verdict { winner rationale } models { label summary { passRate avgScore } } } }`,
    { id: runId },
  );
  if (run.status === "FAILED") {
    io.out(`run failed: ${run.errorMessage ?? "(no message)"}`);
    return false;
  }
  for (const model of run.models) {
    const s = model.summary;
    io.out(`  ${model.label.padEnd(20)} ${s?.passRate === null || s?.passRate === undefined ? "—" : `${s.passRate.toFixed(1)}% passed`}`);
  }
  if (run.verdict?.winner) io.out(`verdict: ${run.verdict.winner} — ${run.verdict.rationale ?? ""}`.trimEnd());
  const total = run.progress.total;
  if (total === 0 || run.runErrors.totalCount < total) return true;
  io.out(runFailureLine(total, firstCause(run.runErrors)));
  return false;
}
