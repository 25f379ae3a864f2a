// What every fault check reads about one result, computed at most once per diagnosis.
import { PASS_THRESHOLD, type Scores } from "../scoring/gate.js";
import { scenarioChecks, type ScenarioChecks } from "../scoring/scenarioChecks.js";
import type { Replay } from "../replay/replay.js";
import type { Scenario } from "../scenarios/scenario.js";
import { excerptAround } from "./text.js";
import { specificClaimIndex } from "./phrasings.js";
import type { DiagnoseInput } from "./types.js";

const NO_TOOLS: readonly string[] = [];

// A context lives for one diagnosis, so once a run ends none is left, and a full collection then
// frees the hidden class V8 gave them (class instances reach it by a weak transition). Every
// optimized diagnosis function checked against that class is thrown away with it ("weak
// objects"), and the next run starts unoptimized: about twice the CPU. Holding the latest context
// keeps the class alive; it holds one result's inputs until the next diagnosis.
const latest: DiagnosisContext[] = [];

export class DiagnosisContext {
  readonly scenario: Scenario;
  readonly replay: Replay;
  readonly scores: Scores;
  readonly score: number | null;
  readonly availableTools: readonly string[];
  readonly threshold: number;
  readonly agent: string;
  readonly judgeKeys: readonly string[];
  readonly answer: string;
  readonly checks: ScenarioChecks;
  #claimIndex: number | undefined;

  constructor(input: DiagnoseInput) {
    this.scenario = input.scenario;
    this.replay = input.replay;
    this.scores = input.scores ?? {};
    this.score = input.score ?? null;
    this.availableTools = input.availableTools ?? NO_TOOLS;
    this.threshold = input.threshold ?? PASS_THRESHOLD;
    this.agent = input.agentName ?? "The agent";
    this.judgeKeys = input.judgeKeys ?? NO_TOOLS;
    this.answer = input.replay.answerText;
    this.checks = scenarioChecks(input.scenario);
    latest[0] = this;
  }

  get agentLower(): string {
    return this.agent.toLowerCase();
  }

  get lower(): string {
    return this.replay.answerLower;
  }

  get called(): readonly string[] {
    return this.replay.toolNames;
  }

  get calledDistinct(): string[] {
    return [...new Set(this.called)];
  }

  /** Expected tools the roster does not hold, in scenario order. */
  notInRoster(tools: readonly string[]): string[] {
    return tools.filter((tool) => !this.availableTools.includes(tool));
  }

  /** The answer states specifics (a count, an id, a date) that only a tool could have supplied. */
  get assertsSpecifics(): boolean {
    return this.claimIndex >= 0;
  }

  /** The answer from 40 characters before the claim, 120 characters long; null without one. */
  get claim(): string | null {
    return this.claimIndex < 0 ? null : excerptAround(this.answer, this.claimIndex, 40, 120);
  }

  private get claimIndex(): number {
    return (this.#claimIndex ??= specificClaimIndex(this.answer));
  }
}
