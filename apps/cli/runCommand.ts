// `verdict run --catalog FILE --product P --set S --models a,b --agent scripted:FILE|module:FILE|chat:FILE|http:URL
//   [--judge scripted:FILE|providers[:MODEL]|none] [--tools FILE] [--prices FILE] [--format md|json|html]
//   [--theme light|dark|auto] [--out FILE] [--gate 0.8] [--concurrency N] [--replay-timeout MS] [--require-judge-scores]
//   [--release DIGEST [--release-revision REV] [--release-label LABEL]] [--metadata KEY=VALUE ...]`
import { fraction, list, oneOf, parseFlags, required } from "./args.js";
import { FLAG_SPECS } from "./flagSpecs.js";
import { checkOutputPath, errorText, writeOutputFor } from "./outputFile.js";
import { CliError, EXIT, exitCodeOf, type ExitCode } from "./errors.js";
import { guardAgentModule, type AgentModuleGuard } from "./agentModuleGuard.js";
import { KPI_NO_JUDGE_MESSAGE, priceRefusalLine, type JudgeExchange, type KpiSettlement, type PriceRefusal, type Result } from "@verdict/domain";
import { gateMessage } from "./gateMessage.js";
import { reasonLine, runFailureLine } from "./runFailure.js";
import { localRun, renderReport, RUN_METADATA_KEYS } from "./localRun.js";
import { metadataFromFlags } from "./metadataFlags.js";
import { releaseFromFlags } from "./releaseFlags.js";
import { agentFromFlag, judgeFromFlag } from "./runtimeSpecs.js";
import { providerKeyRedactor } from "@verdict/infra/agents";
import { processIo, type Io } from "./io.js";
import { loadToolsFile } from "./toolsFile.js";
import { loadPricesFlag } from "./pricesFile.js";
import { themeFlag } from "./themeFlag.js";
import { parseWholeNumber, REPLAY_TIMEOUT_RULE, SettingError } from "@verdict/infra/settings";

const RUN_FLAGS = FLAG_SPECS.run;

export async function runCommand(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<ExitCode> {
  const guarded: { guard: AgentModuleGuard | null } = { guard: null };
  try {
    const code = await localRunCommand(argv, io, env, guarded);
    guarded.guard?.finish(code);
    return code;
  } catch (error) {
    guarded.guard?.finish(exitCodeOf(error));
    throw error;
  }
}

/**
 * An agent module runs in this process: in the real CLI (processIo), the process is guarded while
 * it is loaded (agentModuleGuard.ts: its process.exit, stray errors and stdout writes).
 */
function moduleGuardFor(agentSpec: string, io: Io, reportToStdout: boolean, env: NodeJS.ProcessEnv): AgentModuleGuard | null {
  const spec = agentSpec.trim();
  if (io !== processIo || !spec.startsWith("module:")) return null;
  return guardAgentModule(spec, spec.slice("module:".length), reportToStdout, providerKeyRedactor(env));
}

async function localRunCommand(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv, guarded: { guard: AgentModuleGuard | null }): Promise<ExitCode> {
  const flags = parseFlags("run", argv, RUN_FLAGS);
  const catalogPath = required("run", flags, "catalog", "the catalog YAML file");
  const product = required("run", flags, "product");
  const set = required("run", flags, "set");
  const models = list("run", "models", required("run", flags, "models", "comma separated, e.g. gpt-5-mini,claude-sonnet-4-5"));
  const agentSpec = required("run", flags, "agent", "scripted:FILE, module:FILE, chat:FILE or http:URL");
  const format = oneOf("run", "format", flags.values.format, ["md", "json", "html"] as const, "md");
  const theme = themeFlag("run", flags.values.theme, format);
  const gate = fraction("run", "gate", flags.values.gate);
  const release = releaseFromFlags("run", flags);
  const metadata = metadataFromFlags("run", flags, RUN_METADATA_KEYS);
  let concurrency = 4;
  let replayTimeoutMs: number | undefined;
  try {
    if (flags.values.concurrency !== undefined) concurrency = parseWholeNumber("--concurrency", flags.values.concurrency, { min: 1 });
    // The worker's VERDICT_REPLAY_TIMEOUT_MS rule; that variable is not read here, as run reads
    // none of the worker's (VERDICT_AGENT, VERDICT_JUDGE, VERDICT_PRICES): its flags say it all.
    if (flags.values["replay-timeout"] !== undefined) replayTimeoutMs = parseWholeNumber("--replay-timeout", flags.values["replay-timeout"], REPLAY_TIMEOUT_RULE);
  } catch (error) {
    if (error instanceof SettingError) return io.usage(`verdict run: ${error.message}`);
    throw error;
  }
  checkOutputPath("run", "--out", flags.values.out);
  const availableTools = flags.values.tools === undefined ? undefined : await loadToolsFile(flags.values.tools, "verdict run: --tools");
  const prices = flags.values.prices === undefined ? null : loadPricesFlag(flags.values.prices, "verdict run: --prices");
  guarded.guard = moduleGuardFor(agentSpec, io, !flags.values.out, env);
  const runtime = await asRunFlag(() => agentFromFlag(agentSpec, env));
  guarded.guard?.loaded();
  const judge = await asRunFlag(() => judgeFromFlag(flags.values.judge ?? "none", env));
  const quiet = flags.booleans.quiet;
  // An estimate past what a cost may be (an absurd rate) leaves its replay unpriced: said once, not per replay.
  let refusalSaid = false;
  const onPriceRefused = (refusal: PriceRefusal) => {
    if (refusalSaid) return;
    refusalSaid = true;
    io.err(`verdict run: --prices ${flags.values.prices}: ${priceRefusalLine(refusal)} (said once: any other replay so priced is left unpriced too)`);
  };
  const outcome = await localRun({
    catalogPath, product, set, models, runtime, judge, concurrency, replayTimeoutMs, availableTools, prices, onPriceRefused, release, metadata,
    includeProductionOnly: flags.booleans["include-production-only"],
    requireJudgeScores: flags.booleans["require-judge-scores"],
    onNotice: (line) => io.err(`verdict run: ${line}`),
    // `expcet: { contains: [x] }` is ignored, as any key the format does not read: every check of that scenario vanished unsaid.
    onCatalogWarning: (line) => io.err(`verdict run: ${line}`),
    onResult: quiet ? undefined : (result, done, total) => {
      // An errored pair says why (the agent's error, on one line): `errored (run_error)` alone sent a user to the report.
      const reason = result.status === "errored" && result.replay.error ? `: ${reasonLine(result.replay.error)}` : "";
      io.err(`[${done}/${total}] ${result.scenario.key} x ${result.spec.label}: ${result.status}${result.diagnosis ? ` (${result.diagnosis.fault})` : ""}${reason}`);
    },
  });
  const text = renderReport(outcome.report, format, theme);
  if (flags.values.out) {
    await writeOutputFor("run", "--out", flags.values.out, text);
    io.err(`report written to ${flags.values.out}`);
  } else {
    // The report's exact bytes, as --out writes them (io.out would show control characters as escapes).
    // Awaited: a stdout that cannot take them (a full disk, /dev/full) is this run's error, said
    // before any verdict of the gate (which read "met" above a report that was never written).
    try {
      // Past the guard's routing of the module's stdout writes to stderr (it writes synchronously).
      const report = text.endsWith("\n") ? text : `${text}\n`;
      await (guarded.guard ? guarded.guard.writeReport(() => io.write(report)) : io.write(report));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EPIPE") throw new CliError(`verdict run: stdout: could not write the report (${errorText(error)})`, EXIT.failed);
      // A reader gone (`| head`) may have read all it wanted, as `report | head` does: said, and
      // the gate below still decides the exit (it exited 0 here, before the gate was looked at).
      io.err("verdict run: stdout: its reader closed before the whole report was written");
    }
  }
  const kpis = kpiLine(outcome.kpis);
  if (kpis) io.err(kpis);
  const skipped = judgeSkips(outcome.results, outcome.report.verdictExchange as JudgeExchange | null, outcome.kpis?.exchange ?? null);
  if (skipped) io.err(skipped);
  const failed = runFailure(outcome.results);
  if (failed) {
    io.err(failed);
    return EXIT.failed;
  }
  const gated = gateMessage(outcome, gate);
  io.err(gated.text);
  return gated.met ? EXIT.ok : EXIT.failed;
}

/**
 * How many judge calls were skipped and the first reason, or null: a judge that cannot be reached
 * (a wrong key, a provider down) leaves the grades to the rules, which the report alone did not
 * show (it still said "Judged by"). The run's verdict call counts too (the report's judge calls
 * do), and its skip is named: it is the one that changes which model the report recommends. A
 * judge_defined set's define call counts as the report counts it.
 */
function judgeSkips(results: readonly Result[], verdictExchange: JudgeExchange | null, defineExchange: JudgeExchange | null): string | null {
  let calls = 0;
  let skipped = 0;
  let reason = "";
  // The KPIs' define call is one of the report's calls; its skip is the KPIs line's to say.
  if (defineExchange) calls += 1;
  for (const exchange of results.flatMap((result) => result.judgeExchanges)) {
    calls += 1;
    if (!exchange.skipped) continue;
    skipped += 1;
    reason ||= exchange.unusable_reason ?? "";
  }
  const verdictSkipped = verdictExchange?.skipped === true;
  if (verdictExchange) calls += 1;
  if (skipped === 0 && !verdictSkipped) return null;
  let text = `judge: ${skipped + (verdictSkipped ? 1 : 0)} of ${calls} calls were skipped`;
  if (skipped > 0) text += `, those grades decided on rules alone; the first: ${reason}`;
  if (verdictSkipped) text += `${skipped > 0 ? ";" : ","} the verdict's among them, so the best model was picked by pass rate: ${verdictExchange.unusable_reason ?? ""}`;
  return text;
}

/** How a judge_defined set's KPIs were settled (the report's header says so too), or null for other sets. */
function kpiLine(kpis: KpiSettlement | null): string | null {
  if (!kpis) return null;
  if (kpis.failure === KPI_NO_JUDGE_MESSAGE) return `KPIs: none, scored on the set's criteria alone: ${kpis.failure}; here, give a judge with --judge scripted:FILE or providers[:MODEL]`;
  if (kpis.failure) return `KPIs: none, scored on the set's criteria alone: ${kpis.failure}${kpis.reason ? ` (${kpis.reason})` : ""}`;
  return `KPIs: the judge defined ${kpis.criteria.length} for this run (${kpis.criteria.map((kpi) => kpi.key).join(", ")}), scored beside the set's criteria`;
}

/**
 * Why the run failed, when no pair got as far as an answer (every one a run_error: the agent was
 * unreachable, or answered nothing), or null. Its pass rate of 0 would otherwise exit 0 unless
 * a --gate was given.
 */
function runFailure(results: readonly Result[]): string | null {
  if (results.length === 0 || !results.every((result) => result.fault === "run_error")) return null;
  return runFailureLine(results.length, results[0].diagnosis?.summary, `${results[0].scenario.key} x ${results[0].spec.label}`);
}

/** A refused --agent or --judge, said as `verdict run:`'s other flag errors are (runtimeSpecs names only the flag). */
async function asRunFlag<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw error instanceof CliError ? new CliError(`verdict run: ${error.message}`, error.exitCode) : error;
  }
}
