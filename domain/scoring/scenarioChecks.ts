// A scenario's expectations compiled once and shared by Scorer and Diagnosis: its patterns are
// compiled on first use and kept with the scenario (a Scenario is immutable), so scoring 100,000
// replays of one suite compiles each pattern once. Which patterns matched the last replay matched
// is remembered (one entry, in buffers reused across replays), so Diagnosis does not match them
// all a second time after the Scorer did.
import type { Replay } from "../replay/replay.js";
import type { Scenario } from "../scenarios/scenario.js";
import { roundHalfAwayFromZero } from "../support/round.js";
import { compilePattern, matchesCompiled, type CompiledPattern } from "./pattern.js";

export class ScenarioChecks {
  readonly expectedTools: readonly string[];
  readonly expected: readonly CompiledPattern[];
  readonly forbidden: readonly CompiledPattern[];
  /** The last replay matched; a Replay is immutable, so its matches stay valid. */
  #last: Replay | null = null;
  readonly #expectedHits: Uint8Array;
  readonly #forbiddenHits: Uint8Array;
  #expectedCount = 0;
  #forbiddenCount = 0;

  constructor(scenario: Scenario) {
    this.expectedTools = [...scenario.expectedTools];
    this.expected = scenario.expectedPatterns.map(compilePattern);
    this.forbidden = scenario.forbiddenPatterns.map(compilePattern);
    this.#expectedHits = new Uint8Array(this.expected.length);
    this.#forbiddenHits = new Uint8Array(this.forbidden.length);
  }

  anyExpectedCalled(called: readonly string[]): boolean {
    for (const name of called) if (this.expectedTools.includes(name)) return true;
    return false;
  }

  /** Matched / total expected patterns, rounded to 3 decimals. */
  expectedContentScore(replay: Replay): number {
    this.#match(replay);
    return roundHalfAwayFromZero(this.#expectedCount / this.expected.length, 3);
  }

  anyForbidden(replay: Replay): boolean {
    this.#match(replay);
    return this.#forbiddenCount > 0;
  }

  /** Sources of the forbidden patterns found in the answer, in scenario order. */
  forbiddenFound(replay: Replay): string[] {
    this.#match(replay);
    return this.forbidden.filter((_, i) => this.#forbiddenHits[i] === 1).map((pattern) => pattern.source);
  }

  /** Sources of the expected patterns the answer lacks, in scenario order. */
  expectedMissing(replay: Replay): string[] {
    this.#match(replay);
    return this.expected.filter((_, i) => this.#expectedHits[i] === 0).map((pattern) => pattern.source);
  }

  #match(replay: Replay): void {
    if (this.#last === replay) return;
    const answer = replay.answerText;
    const lower = this.expected.length + this.forbidden.length > 0 ? replay.answerLower : "";
    this.#expectedCount = fill(this.#expectedHits, this.expected, answer, lower);
    this.#forbiddenCount = fill(this.#forbiddenHits, this.forbidden, answer, lower);
    this.#last = replay;
  }
}

/** Marks which patterns match; returns how many did. */
function fill(hits: Uint8Array, patterns: readonly CompiledPattern[], answer: string, lower: string): number {
  let count = 0;
  for (let i = 0; i < patterns.length; i += 1) {
    const hit = matchesCompiled(patterns[i], answer, lower);
    hits[i] = hit ? 1 : 0;
    if (hit) count += 1;
  }
  return count;
}

const compiled = new WeakMap<Scenario, ScenarioChecks>();

export function scenarioChecks(scenario: Scenario): ScenarioChecks {
  let checks = compiled.get(scenario);
  if (!checks) {
    checks = new ScenarioChecks(scenario);
    compiled.set(scenario, checks);
  }
  return checks;
}
