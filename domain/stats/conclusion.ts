// The sentences a comparison ends with. The all-indecisive sentence is the guide's, word
// for word; the others follow its lead: name each decisive pair, and say plainly when two
// models share too few scenarios to compare.

import type { PairComparison } from "./comparison.js";
import { boundText, confidenceLabel } from "./figures.js";

export const COMPARISON_NOT_DECISIVE =
  "The pairwise difference interval includes zero: the ranking is not decisive evidence of superiority.";

export function comparisonConclusion(input: { labels: string[]; pairs: PairComparison[]; confidence: number }): string {
  const { labels, pairs, confidence } = input;
  if (labels.length < 2) return "Only one model was compared: there is no pair to rank.";
  const decisive = pairs.filter((pair) => pair.decisive);
  const tooFew = pairs.filter((pair) => pair.interval === null);
  const sentences: string[] = [];
  if (decisive.length > 0) {
    const named = decisive.map((pair) => decisiveClause(pair, confidence));
    const verb = decisive.length === 1 ? "that ranking is" : "those rankings are";
    sentences.push(`The pairwise difference interval excludes zero for ${joinAnd(named)}: ${verb} decisive.`);
    const indecisive = pairs.length - tooFew.length - decisive.length;
    if (indecisive > 0) {
      sentences.push(indecisive === 1 ? "The other pair's interval includes zero." : "The other pairs' intervals include zero.");
    }
  } else if (tooFew.length < pairs.length) {
    sentences.push(COMPARISON_NOT_DECISIVE);
  }
  if (tooFew.length === pairs.length && tooFew.length > 1) {
    sentences.push("The models share fewer than two scenarios per pair: too few to compare.");
  } else {
    for (const pair of tooFew) {
      const shared = pair.scenarios === 1 ? "only one scenario" : "no scenario";
      sentences.push(`${pair.models[0]} and ${pair.models[1]} share ${shared}: too few to compare.`);
    }
  }
  return sentences.join(" ");
}

function decisiveClause(pair: PairComparison, confidence: number): string {
  const [low, high] = pair.interval ?? [0, 0];
  return (
    `${pair.models[0]} over ${pair.models[1]} ` +
    `(+${decimal(pair.difference ?? 0)} points, ${confidenceLabel(confidence)} interval [${boundText(low)}, ${boundText(high)}])`
  );
}

/** "How the intervals were computed", for the report beside the comparison. */
export function comparisonMethod(input: { seed: number; resamples: number; confidence: number }): string {
  return (
    `Percentile bootstrap over whole scenarios: ${thousands(input.resamples)} resamples, ` +
    `${confidenceLabel(input.confidence)} confidence, seed ${input.seed}; ` +
    "each pair is resampled on the scenarios both models ran, drawing the same scenarios for both."
  );
}

function joinAnd(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** One decimal always, as the figures are recorded (7 -> "7.0"). */
function decimal(value: number): string {
  return value.toFixed(1);
}

function thousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
