// What an answer says about itself, read by fixed phrasings (reference-core §9).

/**
 * Phrasings an agent uses when nothing in its toolset covers the task. "find" and "see" are
 * deliberately absent: "I can't find any…" reports a negative result, not a missing capability.
 * Quirk kept from the reference: "not something I can do" does not match (no space after "can").
 */
export const CAPABILITY_REFUSALS: readonly RegExp[] = [
  /\bI(?:'m| am)? (?:do not |don't |cannot |can't |unable to |not able to )(?:currently )?(?:have|access|retrieve|look up|query|check|view|search)\b/i,
  /\b(?:no|don't have (?:a|any)) tools? (?:is |are )?(?:available|that can|to)\b/i,
  /\bnot (?:something|able|possible) (?:I|to) (?:can|am able to )?(?:do|access|retrieve|look up)\b/i,
  /\bI (?:don't|do not) have (?:the ability|a way|access|visibility|the tools?)\b/i,
  /\boutside (?:of )?(?:my|the) (?:capabilities|available tools|scope)\b/i,
  /\bcan(?:'|no)t (?:be )?(?:done|determined|answered) with (?:the|my) (?:current|available) tools\b/i,
];

/**
 * Specific facts — a record id, a date, a count of things — that an agent which called no tool
 * can only have invented. Deliberately narrow: numbers in prose ("within 30 days", "12 refund
 * requests") are not claims about data. Tried in this order, not by position.
 */
export const SPECIFIC_CLAIMS: readonly RegExp[] = [
  /#\d+\b/,
  /\b\d{4}-\d{2}-\d{2}\b/,
  /\b(?:you have|there are|there is|we have|I found|found|showing|a total of)\s+(?:\*\*)?\d+\b/i,
  /\b\d+\s+(?:\*\*)?(?:open|overdue|pending|active|closed|resolved|completed|unpaid|outstanding|new|matching|records?|results?|rows?|entries|items?|tickets?|orders?|tasks?|issues?|invoices?|customers?|users?|milestones?)\b/i,
];

/** All refusals in one pass: most answers are not refusals, so one scan decides the common case. */
const ANY_REFUSAL = new RegExp(CAPABILITY_REFUSALS.map((pattern) => `(?:${pattern.source})`).join("|"), "i");
/** Every specific-claim pattern needs a digit; an answer without one is settled without a regex. */
const DIGIT = /\d/;

/** The index where the first refusal phrasing (in list order) matches, or -1. */
export function refusalIndex(answer: string): number {
  // Measured: one combined regex is ~4x faster than the six, and faster than substring prefilters.
  if (!ANY_REFUSAL.test(answer)) return -1;
  for (const pattern of CAPABILITY_REFUSALS) {
    const match = pattern.exec(answer);
    if (match) return match.index;
  }
  return -1;
}

/** The index where the first specific-claim pattern (in list order) matches, or -1. */
export function specificClaimIndex(answer: string): number {
  if (!DIGIT.test(answer)) return -1;
  for (const pattern of SPECIFIC_CLAIMS) {
    const match = pattern.exec(answer);
    if (match) return match.index;
  }
  return -1;
}
