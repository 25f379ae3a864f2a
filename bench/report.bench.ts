// `npm run bench -- report`: the evaluation core on the workload (issue 4 "Speed"):
// 1,000 scenarios x 5 models = 5,000 results, replays built before timing (the replay function
// is a lookup), rule criteria only, no judge. Each phase gets a fresh Report so cached views are
// not what is timed; median of 5 runs after a warm-up; each figure also as a ratio to
// JSON.stringify of the results measured in the same run. 200 x 5 is shown beside 1,000 x 5 to
// show linear growth. Targets (10x the Ruby reference): runner <= 30 ms, Markdown <= 13 ms,
// JSON <= 30 ms, HTML <= 27 ms, comparison <= 250 ms, peak RSS <= 95 MB.
import { Comparison } from "../domain/stats/index.js";
import { Report } from "../domain/report/index.js";
import { Runner } from "../domain/runner/index.js";
import { performance } from "node:perf_hooks";
import { peakRssMb, printTable, type Timing } from "./harness.js";
import { buildWorkload, CRITERIA } from "./reportWorkload.js";

const TARGETS: Record<string, number> = {
  "Runner.run()": 30,
  "toMarkdown()": 13,
  "toJSON() + JSON.stringify": 30,
  "toHtml()": 27,
  "Comparison (5,000 resamples, 10 pairs)": 250,
};

interface PhaseTiming extends Timing {
  /** Median CPU time (user + system) of the same runs: on a shared machine wall time also counts waiting for a core. */
  cpuMs: number;
  /** CPU time per run over BACK_TO_BACK runs with no forced collection between them (GC amortized). */
  steadyCpuMs: number;
  fn: () => unknown;
  /** Builds what the back-to-back runs need and returns their function, when `fn` keeps nothing. */
  prepare?: () => () => unknown;
  /** The process's peak RSS once this phase's timed runs were done (phases run in table order). */
  peakRssAfterMb: number;
}

// The timed runs each follow a forced full collection (so one run's garbage is not charged to the
// next). That collection also frees what the previous run's optimized code had embedded (a
// Runner's criteria closures, maps), so V8 deoptimizes it ("weak objects") and each timed run
// starts again from unoptimized code: the Runner measures about twice its steady cost that way.
// Runs back to back, as a process doing one evaluation after another, are shown beside it.
const BACK_TO_BACK = 10;

/** The harness's median-of-5-after-a-warm-up, reporting CPU time beside wall time. */
async function time(name: string, fn: () => unknown, { runs = 5, warmup = 1 } = {}): Promise<PhaseTiming> {
  for (let i = 0; i < warmup; i += 1) await fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    (globalThis as { gc?: () => void }).gc?.();
    const usage = process.cpuUsage();
    const start = performance.now();
    await fn();
    wall.push(performance.now() - start);
    const spent = process.cpuUsage(usage);
    cpu.push((spent.user + spent.system) / 1000);
  }
  const median = (values: number[]): number => values.sort((a, b) => a - b)[values.length >> 1];
  return { name, medianMs: median(wall), cpuMs: median(cpu), steadyCpuMs: NaN, fn, peakRssAfterMb: peakRssMb() };
}

/** CPU per run over BACK_TO_BACK runs with no collection forced in between. */
async function backToBack(timing: PhaseTiming): Promise<void> {
  const fn = timing.prepare?.() ?? timing.fn;
  const usage = process.cpuUsage();
  for (let i = 0; i < BACK_TO_BACK; i += 1) await fn();
  const spent = process.cpuUsage(usage);
  timing.steadyCpuMs = (spent.user + spent.system) / 1000 / BACK_TO_BACK;
}

async function measure(scenarioCount: number): Promise<{ timings: PhaseTiming[]; baseline: PhaseTiming }> {
  const workload = buildWorkload(scenarioCount);
  const runner = () => new Runner({ scenarios: workload.scenarios, models: workload.models, replay: workload.replay, criteria: CRITERIA });
  const report = await runner().run();
  const { results, models } = report;
  const fresh = () => new Report({ results, models, criteria: CRITERIA, comparison: report.comparisonJSON });

  // The results' JSON exists for the baseline alone: built for its runs and let go after them,
  // not held through every other phase (the back-to-back runs build it again).
  let resultsJson: object[] | null = null;
  const baseline = await time("JSON.stringify(results)", () => JSON.stringify((resultsJson ??= results.map((r) => r.toJSON()))));
  resultsJson = null;
  baseline.prepare = () => {
    const json = results.map((r) => r.toJSON());
    return () => JSON.stringify(json);
  };
  const timings = [
    await time("Runner.run()", () => runner().run()),
    await time("toMarkdown()", () => fresh().toMarkdown()),
    await time("toJSON() + JSON.stringify", () => JSON.stringify(fresh().toJSON())),
    await time("toHtml()", () => fresh().toHtml()),
    await time("fixItems", () => fresh().fixItems),
    await time("summaryByModel", () => fresh().summaryByModel),
    await time("Comparison (5,000 resamples, 10 pairs)", () => new Comparison({ results, models: models.map((m) => m.label) })),
  ];
  return { timings, baseline };
}

/** The timings without their functions, so nothing of the run they measured stays reachable. */
function figures(run: { timings: PhaseTiming[]; baseline: PhaseTiming }): { timings: PhaseTiming[]; baseline: PhaseTiming } {
  const strip = (timing: PhaseTiming): PhaseTiming => ({ ...timing, fn: () => undefined, prepare: undefined });
  return { timings: run.timings.map(strip), baseline: strip(run.baseline) };
}

async function main(): Promise<void> {
  // What the process holds before any work (node + the modules, + the tsx loader on the fallback), for reading the peak.
  const startRss = peakRssMb();
  // Only the figures of the small run are kept: its workload and results are let go before the
  // large run, which is the one whose memory the peak RSS is about.
  const small = figures(await measure(200));
  const large = await measure(1000);
  // Read before the back-to-back runs, which let garbage pile up between collections.
  const rss = peakRssMb();
  for (const timing of [large.baseline, ...large.timings]) await backToBack(timing);
  const row = (timing: PhaseTiming, smallTiming: PhaseTiming) => {
    const target = TARGETS[timing.name];
    return {
      phase: timing.name,
      "200x5 ms": smallTiming.medianMs.toFixed(1),
      "1000x5 ms": timing.medianMs.toFixed(1),
      "1000x5 cpu ms": timing.cpuMs.toFixed(1),
      "back-to-back cpu ms": timing.steadyCpuMs.toFixed(1),
      "peak RSS after, MB": timing.peakRssAfterMb,
      growth: `${(timing.cpuMs / smallTiming.cpuMs).toFixed(2)}x`,
      "vs JSON.stringify": `${(timing.cpuMs / large.baseline.cpuMs).toFixed(2)}x`,
      target: target === undefined ? "" : `<= ${target} ms`,
      ok: target === undefined ? "" : timing.medianMs <= target ? "yes" : timing.cpuMs <= target ? "cpu only" : "NO",
    };
  };
  printTable([row(large.baseline, small.baseline), ...large.timings.map((timing, i) => row(timing, small.timings[i]))]);
  const load = (await import("node:os")).loadavg()[0];
  console.log(`load average ${load.toFixed(1)} on ${(await import("node:os")).cpus().length} cores; growth and ratios use CPU time`);
  console.log(`peak RSS ${rss} MB (target <= 95 MB) ${rss <= 95 ? "yes" : "NO"}; ${startRss} MB of it before any work (node + modules${process.execArgv.includes("tsx") ? " + tsx loader" : ""})`);
  console.log("growth: 1000x5 over 200x5 (5x the results; about 5x is linear)");
  console.log("peak RSS after: the process's peak once that phase's 1000x5 runs were done (phases run top to bottom, the baseline first)");
  console.log(`back-to-back: CPU per run over ${BACK_TO_BACK} runs with no forced GC between them (1000x5, after the peak RSS was read); "ok" judges the medians after a forced GC`);
}

await main();
