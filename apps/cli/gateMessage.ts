// What `verdict run` says about its pass rate and its --gate. Both are shown as percentages with
// one decimal, or as many more as it takes to tell them apart: rounded alike, a 2/3 pass rate
// under a 0.667 gate read "66.7% is below 66.7%".
import type { LocalRunOutcome } from "./localRun.js";

const percentOf = (fraction: number, digits: number) => `${(fraction * 100).toFixed(digits)}%`;

/** The two fractions as percentages, with the fewest decimals (one at least) that differ. */
export function distinctPercents(a: number, b: number): [string, string] {
  if (a === b) return [percentOf(a, 1), percentOf(b, 1)];
  for (let digits = 1; digits <= 15; digits++) {
    if (percentOf(a, digits) !== percentOf(b, digits)) return [percentOf(a, digits), percentOf(b, digits)];
  }
  // Apart only past what toFixed shows. Times 100 two neighbouring doubles can meet (0.7 and
  // 0.7000000000000001 both give 70), so the fractions themselves, whose shortest forms differ.
  return [String(a), String(b)];
}

/** The line that ends a run; `met` is false when the pass rate is below the gate. */
export function gateMessage(outcome: Pick<LocalRunOutcome, "passed" | "total" | "passRate">, gate: number | null): { met: boolean; text: string } {
  const [rate, bar] = distinctPercents(outcome.passRate, gate ?? outcome.passRate);
  const counted = `pass rate ${rate} (${outcome.passed}/${outcome.total})`;
  if (gate === null) return { met: true, text: counted };
  if (outcome.passRate < gate) return { met: false, text: `gate failed: ${counted} is below ${bar}` };
  return { met: true, text: `${counted}, gate ${bar} met` };
}
