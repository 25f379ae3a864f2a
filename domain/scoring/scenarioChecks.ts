// A scenario's expectations compiled once and shared by Scorer and Diagnosis: its patterns are
// compiled on first use and kept with the scenario (a Scenario is immutable), so scoring 100,000
// replays of one suite compiles each pattern once.
import type { Scenario } from "../scenarios/scenario.js";
import { compilePattern, matchesCompiled, type CompiledPattern } from "./pattern.js";
import { roundHalfAwayFromZero } from "../support/round.js";

export class ScenarioChecks {
  readonly expectedTools: readonly string[];
  readonly expected: readonly CompiledPattern[];
  readonly forbidden: readonly CompiledPattern[];

  constructor(scenario: Scenario) {
    this.expectedTools = [...scenario.expectedTools];
    this.expected = scenario.expectedPatterns.map(compilePattern);
    this.forbidden = scenario.forbiddenPatterns.map(compilePattern);
  }

  anyExpectedCalled(called: readonly string[]): boolean {
    for (const name of called) if (this.expectedTools.includes(name)) return true;
    return false;
  }

  /** Matched / total expected patterns, rounded to 3 decimals. */
  expectedContentScore(answer: string, lower: string): number {
    let hits = 0;
    for (const pattern of this.expected) if (matchesCompiled(pattern, answer, lower)) hits += 1;
    return roundHalfAwayFromZero(hits / this.expected.length, 3);
  }

  anyForbidden(answer: string, lower: string): boolean {
    for (const pattern of this.forbidden) if (matchesCompiled(pattern, answer, lower)) return true;
    return false;
  }

  /** Sources of the forbidden patterns found in the answer, in scenario order. */
  forbiddenFound(answer: string, lower: string): string[] {
    return this.forbidden.filter((pattern) => matchesCompiled(pattern, answer, lower)).map((pattern) => pattern.source);
  }

  /** Sources of the expected patterns the answer lacks, in scenario order. */
  expectedMissing(answer: string, lower: string): string[] {
    return this.expected.filter((pattern) => !matchesCompiled(pattern, answer, lower)).map((pattern) => pattern.source);
  }
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
