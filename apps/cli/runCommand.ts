// `verdict run --catalog FILE --product P --set S --models a,b --agent scripted:FILE|http:URL
//   [--judge scripted:FILE|none] [--format md|json|html] [--out FILE] [--gate 0.8]`
import { fraction, list, oneOf, parseFlags, required } from "./args.js";
import { FLAG_SPECS } from "./flagSpecs.js";
import { checkOutputPath, writeOutput } from "./outputFile.js";
import { EXIT, type ExitCode } from "./errors.js";
import { localRun, renderReport } from "./localRun.js";
import { agentFromFlag, judgeFromFlag } from "./runtimeSpecs.js";
import type { Io } from "./io.js";

export const RUN_FLAGS = FLAG_SPECS.run;

export async function runCommand(argv: readonly string[], io: Io): Promise<ExitCode> {
  const flags = parseFlags("run", argv, RUN_FLAGS);
  const catalogPath = required("run", flags, "catalog", "the catalog YAML file");
  const product = required("run", flags, "product");
  const set = required("run", flags, "set");
  const models = list(required("run", flags, "models", "comma separated, e.g. gpt-5-mini,claude-sonnet-4-5"));
  const agentSpec = required("run", flags, "agent", "scripted:FILE or http:URL");
  const format = oneOf("run", "format", flags.values.format, ["md", "json", "html"] as const, "md");
  const gate = fraction("run", "gate", flags.values.gate);
  const concurrency = flags.values.concurrency === undefined ? 4 : /^\d+$/.test(flags.values.concurrency) ? Number(flags.values.concurrency) : NaN;
  if (!Number.isInteger(concurrency) || concurrency < 1) return io.usage(`verdict run: --concurrency must be a whole number >= 1 (got ${flags.values.concurrency})`);
  checkOutputPath("run", "--out", flags.values.out);
  const runtime = await agentFromFlag(agentSpec);
  const judge = await judgeFromFlag(flags.values.judge ?? "none");
  const quiet = flags.booleans.quiet;
  const outcome = await localRun({
    catalogPath, product, set, models, runtime, judge, concurrency,
    includeProductionOnly: flags.booleans["include-production-only"],
    onResult: quiet ? undefined : (result, done, total) => {
      io.err(`[${done}/${total}] ${result.scenario.key} x ${result.spec.label}: ${result.status}${result.diagnosis ? ` (${result.diagnosis.fault})` : ""}`);
    },
  });
  const text = renderReport(outcome.report, format);
  if (flags.values.out) {
    await writeOutput(flags.values.out, text);
    io.err(`report written to ${flags.values.out}`);
  } else {
    io.out(text);
  }
  const rate = `${(outcome.passRate * 100).toFixed(1)}%`;
  if (gate !== null && outcome.passRate < gate) {
    io.err(`gate failed: pass rate ${rate} (${outcome.passed}/${outcome.total}) is below ${(gate * 100).toFixed(1)}%`);
    return EXIT.failed;
  }
  io.err(`pass rate ${rate} (${outcome.passed}/${outcome.total})${gate !== null ? `, gate ${(gate * 100).toFixed(1)}% met` : ""}`);
  return EXIT.ok;
}
