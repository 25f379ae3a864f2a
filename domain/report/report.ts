// Report (reference-core §13, guide "Report"): everything a run says, computed once on first
// use and cached, and written three ways: Markdown, JSON (the guide's snake_case keys) and a
// self-contained HTML page. A recorded verdict or comparison is used as given, so a report
// rebuilt from stored values reads byte for byte as the one first written, with no judge call
// and no resampling.
import { Comparison, type ComparisonJSON } from "../stats/index.js";
import { criterionScores, recommendations } from "./aggregates.js";
import { buildFixItems } from "./fixItems.js";
import { reportMarkdown } from "./markdown.js";
import { fixItemBlock, fixItemsSection } from "./markdownFixItems.js";
import { writeAnswers } from "./markdownScenarios.js";
import { TextWriter } from "./textWriter.js";
import { verdictSection } from "./markdownVerdict.js";
import { code } from "./markdownText.js";
import { summarizeByModel } from "./summary.js";
import { judgedVerdict, rankedVerdict } from "./verdict.js";
import { computeJudgeUsage, computeRunCosts, computeScenarioCosts, type JudgeUsageSummary } from "./costs.js";
import { judgeUsageFromExchanges, type JudgeUsageRecord } from "../cost/index.js";
import { addJudgeUsage } from "../cost/judgeUsage.js";
import { reportDocument, sharedResultDocument } from "./reportJson.js";
import { checkDocument, optionsFromJSON } from "./fromJson.js";
import { THEMES, renderReportHtml } from "./html/index.js";
import type { ReportDocument, Theme } from "./html/index.js";
import type { MarkdownSource } from "./markdownSource.js";
import { comparisonInModelOrder } from "./modelOrder.js";
import { checkRecordedComparison } from "../stats/comparisonRecord.js";
import { checkThreshold } from "./threshold.js";
import { checkUniqueLabels } from "./uniqueLabels.js";
import { checkKnownOptions, checkOptionsObject } from "../support/index.js";
import type {
  CriterionStats, FixItem, InProgress, ModelSummary, Recommendation, Release, ReportLinks, ReportModel, ReportResult,
  RunCosts, ScenarioCost, ToolResolver, Verdict,
} from "./reportTypes.js";

/** The judge the report may ask for a verdict (domain/judge's Judge satisfies it). */
export interface VerdictJudge {
  readonly label: string;
  verdict(input: { summaries: Record<string, ModelSummary>; instructions?: string | null }): Promise<{
    value: { winner?: string; rationale?: string } | null;
    exchange: unknown;
  }>;
}

export interface ReportOptions {
  results: readonly ReportResult[];
  models: readonly ReportModel[];
  criteria?: readonly unknown[];
  judge?: VerdictJudge | null;
  judgeLabel?: string | null;
  instructions?: string | null;
  threshold?: number;
  metadata?: Record<string, unknown>;
  toolResolver?: ToolResolver | null;
  agentName?: string | null;
  links?: ReportLinks;
  /** A verdict already recorded for these results: used as given, the judge is not asked. */
  verdict?: Verdict | null;
  /** A comparison already recorded (its JSON, or a Comparison): rendered, never resampled. */
  comparison?: ComparisonJSON | Comparison | null;
  /** Judge spend no result owns (the verdict, authoring criteria). */
  judgeUsage?: Record<string, unknown> | null;
  release?: Release | null;
  /**
   * Why the run stopped before it finished (a failed run's reason): the report then says so, and
   * that it covers only the results scored before it stopped.
   */
  failure?: string | null;
  /**
   * Why a judge_defined run has no judge-defined KPIs (they could not be authored): the report says
   * so once, and that the run was scored on the evaluation's own criteria.
   */
  kpiFailure?: string | null;
  /**
   * A run still going (neither completed nor failed): how many results it will have in all. The
   * report then says it is in progress, and covers only the results scored so far.
   */
  inProgress?: { total: number } | null;
}

function cleanRelease(release: Release | null | undefined): Release | null {
  if (!release) return null;
  const out: Release = {};
  for (const key of ["digest", "revision", "label"] as const) {
    const value = release[key];
    if (typeof value === "string" && value.trim() !== "") out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : null;
}

const latestResultDocs: unknown[] = [];

// Every option the Report reads (the compiler keeps this in step with ReportOptions): a misspelt
// one (`treshold`) was ignored and the report rendered on the default.
const REPORT_OPTIONS: Record<keyof ReportOptions, true> = {
  results: true, models: true, criteria: true, judge: true, judgeLabel: true, instructions: true, threshold: true, metadata: true,
  toolResolver: true, agentName: true, links: true, verdict: true, comparison: true, judgeUsage: true, release: true, failure: true,
  kpiFailure: true, inProgress: true,
};
const REPORT_OPTION_NAMES = Object.keys(REPORT_OPTIONS);
const HTML_OPTION_NAMES = ["theme"];

/** Marks options rebuilt from a stored document (Report.fromStoredJSON), whose threshold is kept as recorded. */
const RECORDED = Symbol("recorded report");
type ConstructorOptions = ReportOptions & { [RECORDED]?: true };

/** A text holding the answers section, where each scenario's block sits, and the section's offset in it. */
interface AnswersText {
  text: string;
  spans: Map<string, [number, number]>;
  offset: number;
}

export class Report implements MarkdownSource {
  readonly results: readonly ReportResult[];
  readonly models: readonly ReportModel[];
  readonly criteria: readonly unknown[];
  readonly threshold: number;
  readonly metadata: Record<string, unknown>;
  readonly agentName: string;
  readonly release: Release | null;
  readonly failure: string | null;
  readonly kpiFailure: string | null;
  readonly inProgress: InProgress | null;
  readonly #options: ReportOptions;
  readonly #cache = new Map<string, unknown>();
  #judgedVerdict: Verdict | null | undefined;
  #runJudgeUsage: JudgeUsageRecord | null;
  #verdictExchange: unknown = null;

  constructor(options: ReportOptions) {
    checkOptionsObject("Report", options, "{ results, models, … }");
    checkKnownOptions("Report", options ?? {}, REPORT_OPTION_NAMES);
    if (!Array.isArray(options?.results)) throw new TypeError("Report: results must be an array of Result");
    if (!Array.isArray(options.models)) throw new TypeError("Report: models must be an array of model specs");
    checkUniqueLabels("Report", options.models);
    const threshold = options.threshold ?? 0.7;
    checkThreshold("Report", threshold, (options as ConstructorOptions)[RECORDED] === true);
    // Read now, not at the first render: a recording no page could show is refused where it is given.
    const recorded = options.comparison;
    if (recorded && !(recorded instanceof Comparison)) checkRecordedComparison(recorded, "comparison", (message) => new TypeError(`Report: ${message}`));
    this.#options = options;
    this.results = options.results;
    this.models = options.models.map((m) => ({ label: m.label, provider: m.provider, model: m.model }));
    this.criteria = options.criteria ?? [];
    this.threshold = threshold;
    // By reference: a correlation keeps writing onto the hash the report carries.
    this.metadata = options.metadata ?? {};
    this.agentName = options.agentName?.trim() ? options.agentName : "the agent";
    this.release = cleanRelease(options.release);
    this.failure = options.failure?.trim() ? options.failure : null;
    this.kpiFailure = options.kpiFailure?.trim() ? options.kpiFailure : null;
    // A failed run has stopped: its report says that, not that it is still going.
    this.inProgress = !this.failure && options.inProgress ? { scored: this.results.length, total: options.inProgress.total } : null;
    this.#runJudgeUsage = (options.judgeUsage as JudgeUsageRecord | null | undefined) ?? null;
  }

  #once<T>(key: string, compute: () => T): T {
    if (this.#cache.has(key)) return this.#cache.get(key) as T;
    const value = compute();
    this.#cache.set(key, value);
    return value;
  }

  get comparing(): boolean {
    return this.models.length > 1;
  }

  /**
   * A run that has not completed (still running, or failed): its verdict and comparison are
   * decided when a run completes, from all of its results, so none is made up from part of them;
   * only a recorded one is shown.
   */
  get unfinished(): boolean {
    return this.failure !== null || this.inProgress !== null;
  }

  get resultsByScenario(): ReadonlyMap<string, readonly ReportResult[]> {
    return this.#once("byScenario", () => {
      const map = new Map<string, ReportResult[]>();
      for (const result of this.results) {
        const list = map.get(result.scenario.key);
        if (list) list.push(result);
        else map.set(result.scenario.key, [result]);
      }
      return map;
    });
  }

  get summaryByModel(): Record<string, ModelSummary> {
    return this.#once("summary", () => summarizeByModel(this.results, this.models));
  }

  get criterionScores(): Record<string, CriterionStats | Record<string, CriterionStats>> {
    return this.#once("criteria", () => criterionScores(this.results, this.models, this.threshold));
  }

  get recommendations(): Recommendation[] {
    return this.#once("recommendations", () => recommendations(this.results));
  }

  get fixItems(): FixItem[] {
    return this.#once("fixItems", () =>
      buildFixItems(this.results, this.recommendations, {
        agentName: this.agentName,
        links: this.#options.links ?? {},
        toolResolver: this.#options.toolResolver,
      }),
    );
  }

  get scenarioCosts(): Record<string, ScenarioCost> {
    return this.#once("scenarioCosts", () => computeScenarioCosts(this.results));
  }

  get judgeUsage(): JudgeUsageSummary | null {
    return this.#once("judgeUsage", () => computeJudgeUsage(this.results, this.#runJudgeUsage));
  }

  get runCosts(): RunCosts {
    return this.#once("runCosts", () => computeRunCosts(this.results, this.judgeUsage));
  }

  /** The recorded verdict, else the judge's (once `judgeVerdict()` ran), else the ranking (none for an unfinished run). */
  get verdict(): Verdict | null {
    if (this.#options.verdict !== undefined) return this.#options.verdict;
    if (this.#judgedVerdict !== undefined) return this.#judgedVerdict;
    if (this.unfinished) return null;
    return this.#once("rankedVerdict", () => rankedVerdict(this.summaryByModel));
  }

  /** The judge's exchange behind the verdict, when a judge was asked. */
  get verdictExchange(): unknown {
    return this.#verdictExchange;
  }

  /**
   * Asks the judge (once) to pick among the compared models; its present winner and rationale
   * override the ranking. A recorded verdict, a single model, an unfinished run or no judge asks nothing.
   */
  async judgeVerdict(): Promise<Verdict | null> {
    const judge = this.#options.judge;
    if (this.#options.verdict !== undefined || this.#judgedVerdict !== undefined || !judge || this.unfinished) return this.verdict;
    const ranked = rankedVerdict(this.summaryByModel);
    if (!ranked) return (this.#judgedVerdict = null);
    // Nothing was scored: there is nothing for a judge to pick from either.
    if (ranked.winner === null) return (this.#judgedVerdict = ranked);
    const outcome = await judge.verdict({ summaries: this.summaryByModel, instructions: this.#options.instructions ?? null });
    this.#verdictExchange = outcome.exchange;
    this.#judgedVerdict = outcome.value ? judgedVerdict(ranked, judge.label, outcome.value, this.summaryByModel) : ranked;
    const spent = outcome.exchange ? judgeUsageFromExchanges([outcome.exchange as { kind: string }]) : null;
    if (spent) {
      // The verdict belongs to no result: it is run-level judge spend. Views read before it change.
      this.#runJudgeUsage = addJudgeUsage(this.#runJudgeUsage, spent);
      this.#cache.clear();
    }
    return this.#judgedVerdict;
  }

  /** The judge spend no result owns (given, plus the verdict call): what a rebuild passes back. */
  get runJudgeUsage(): JudgeUsageRecord | null {
    return this.#runJudgeUsage;
  }

  get winner(): string | null {
    return this.verdict?.winner ?? null;
  }

  get comparison(): Comparison | null {
    return this.#once("comparison", () => {
      const recorded = this.#options.comparison;
      if (recorded instanceof Comparison) return recorded;
      if (recorded) return Comparison.fromJSON(comparisonInModelOrder(recorded, this.models.map((model) => model.label)));
      // An explicit null is a recorded "none": a rebuilt report never resamples; an unfinished
      // run's comparison is made when it completes.
      if (recorded === null || this.unfinished) return null;
      return this.comparing ? new Comparison({ results: this.results, models: this.models.map((m) => m.label) }) : null;
    });
  }

  get comparisonJSON(): ComparisonJSON | null {
    return this.#once("comparisonJSON", () => this.comparison?.toJSON() ?? null);
  }

  get comparisonMethod(): string | null {
    return this.comparison?.method ?? null;
  }

  /** The judge's name: the recorded label, else the judge's. */
  get judgeName(): string | null {
    return this.#options.judgeLabel ?? this.#options.judge?.label ?? null;
  }

  /**
   * A report rebuilt from its JSON document (`toJSON()`): the recorded verdict and comparison
   * are used as given. `extra` supplies what a document does not carry (toolResolver, links).
   * A document importReport would refuse for its threshold, scores or labels is refused here
   * too (a TypeError naming the field and the rule), before anything is built.
   */
  static fromJSON(doc: ReportDocument, extra: Partial<ReportOptions> = {}): Report {
    checkDocument(doc);
    return new Report(optionsFromJSON(doc, extra));
  }

  /**
   * A report the platform stored, rebuilt as it was recorded, without fromJSON's checks: imports
   * before session 27 took any threshold (70 renders "≥ 7000%"), and earlier ones results that
   * importReport now refuses; a stored run's pages keep the bytes they were first served with.
   */
  static fromStoredJSON(doc: ReportDocument, extra: Partial<ReportOptions> = {}): Report {
    const options: ConstructorOptions = { ...optionsFromJSON(doc, extra, true), [RECORDED]: true };
    return new Report(options);
  }

  verdictMarkdown(): string {
    return this.#once("md:verdict", () => verdictSection(this));
  }

  fixItemsMarkdown({ model }: { model?: string } = {}): string {
    // A label not in the report answered "Nothing to fix.", which read as a clean model for a typo.
    if (model !== undefined && !this.models.some((m) => m.label === model)) {
      throw new RangeError(`fixItemsMarkdown: model ${JSON.stringify(model)} is not in this report (its models: ${this.models.map((m) => m.label).join(", ") || "none"})`);
    }
    if (model === undefined) return this.#once("md:fix", () => fixItemsSection(this.fixItems, undefined, this.#nothingScoredAtAll() ?? undefined));
    return fixItemsSection(this.fixItems, model, this.#nothingScored(model) ?? undefined);
  }

  /**
   * Why one of an unfinished run's models has nothing to fix when none of its results is scored:
   * "Nothing to fix." would read as a clean bill of health for a model not heard from yet.
   */
  #nothingScored(model: string): string | null {
    if (!this.unfinished || !this.models.some((m) => m.label === model) || this.results.some((r) => r.label === model)) return null;
    return this.failure ? `Nothing was scored for ${code(model)} before the run failed.` : `Nothing is scored for ${code(model)} yet.`;
  }

  /** An unfinished run with no result scored: "Nothing to fix." would read as a clean run. */
  #nothingScoredAtAll(): string | null {
    if (!this.unfinished || this.results.length > 0) return null;
    return this.failure ? "Nothing was scored before the run failed." : "Nothing is scored yet.";
  }

  /**
   * What a scenario of an unfinished run with no result reads as where its piece would be (a
   * report knows its results, not the run's selection: the caller says the key was selected).
   */
  unscoredScenarioMarkdown(key: string): string {
    return this.failure
      ? `_Scenario ${code(key)} was not scored: the run failed before it was._`
      : `_Scenario ${code(key)} is not scored yet: the run is still running._`;
  }

  fixItemMarkdown(item: FixItem): string {
    return fixItemBlock(item);
  }

  /** One scenario's `<details>` block, every model's result; throws for a key not in the report. */
  scenarioMarkdown(key: string): string {
    const { text, spans, offset } = this.#answers();
    const span = spans.get(key);
    if (!span) throw new RangeError(`scenarioMarkdown: no result for scenario key ${JSON.stringify(key)}`);
    // A slice of the report's text: the same bytes, without writing the block twice.
    return text.slice(offset + span[0], offset + span[1]);
  }

  /** The answers section with each block's span; `offset` is where `text` holds that section. */
  #answers(): AnswersText {
    return this.#once("md:answers", () => {
      const writer = new TextWriter("utf16le");
      const spans = writeAnswers(this, writer);
      return { text: writer.finish(), spans, offset: 0 };
    });
  }

  /** Where each scenario's piece (scenarioMarkdown) sits in toMarkdown()'s text. */
  #scenarioRanges(): Map<string, readonly [number, number]> {
    this.toMarkdown();
    const { spans, offset } = this.#answers();
    const ranges = new Map<string, readonly [number, number]>();
    for (const [key, [from, to]] of spans) ranges.set(key, [offset + from, offset + to]);
    return ranges;
  }

  toMarkdown(): string {
    return this.#once("md", () => {
      // The answers section written for a scenario's piece before, if any, is copied in whole.
      const written = this.#cache.get("md:answers") as AnswersText | undefined;
      let offset = 0;
      const { text, spans } = reportMarkdown(this, {
        verdict: this.verdictMarkdown(),
        answers: (writer) => {
          if (!written) return writeAnswers(this, writer);
          offset = writer.length;
          writer.write(written.text);
          return written.spans;
        },
        fixItems: this.fixItemsMarkdown(),
      });
      // From now on the scenario pieces are slices of the whole report, and the section's own
      // text is let go rather than kept as a second copy.
      this.#cache.set("md:answers", { text, spans, offset });
      return text;
    });
  }

  /** The report as a JSON document (snake_case keys); a fresh object on every call. */
  toJSON(): ReportDocument {
    return reportDocument(this, { judgeName: this.judgeName, agentName: this.#options.agentName ?? null });
  }

  toHtml(options: { theme?: Theme | null } = {}): string {
    // `toHtml("dark")` and `{ them: "dark" }` rendered the system theme without a word.
    checkOptionsObject("Report: toHtml", options, "{ theme }");
    checkKnownOptions("Report: toHtml", options ?? {}, HTML_OPTION_NAMES);
    const theme = options?.theme ?? null;
    // Any other text would quietly render the system theme, which is not what was asked for.
    if (theme !== null && !(THEMES as readonly unknown[]).includes(theme)) {
      throw new RangeError(`Report: toHtml theme must be light, dark, system or null (the reader's system), got ${JSON.stringify(theme) ?? String(theme)}`);
    }
    const markdown = {
      report: this.toMarkdown(),
      verdict: this.verdictMarkdown(),
      fixItems: this.fixItemsMarkdown(),
      fixItem: this.fixItems.map((item) => this.fixItemMarkdown(item)),
      scenarioRanges: this.#scenarioRanges(),
    };
    // The renderer only reads the document: the results' nested values are shared, not copied.
    const doc = reportDocument(this, { judgeName: this.judgeName, agentName: this.#options.agentName ?? null }, sharedResultDocument);
    // The result documents are built key by key, so V8 gives them hidden classes that live only
    // as long as some document does; when the last died, every optimized renderer function that
    // read one was thrown away ("weak objects") and the next page rendered unoptimized, about
    // twice the cost. Holding the latest page's documents (not the page) keeps those classes.
    latestResultDocs[0] = doc.results;
    return renderReportHtml(doc, { theme, markdown });
  }
}
