// The line `verdict run` and `verdict start` print when no pair of a run got as far as an answer
// (every one a run_error: the agent was unreachable, or answered nothing), with the first cause,
// so a user sees why without opening the saved report; and an errored pair's reason as its
// progress line gives it.

/** Longest reason a stderr line carries (the report keeps the whole of it). */
const REASON_LENGTH = 200;

/**
 * An agent's error as one stderr line: every run of whitespace (line breaks, tabs) one space,
 * clipped to REASON_LENGTH characters with `…`. Its other control characters are io.err's to
 * show as escapes. A thrown message may be a stack trace or megabytes long.
 */
export function reasonLine(text: string): string {
  // Only the head can be shown: a megabytes-long message is not flattened whole for each pair.
  const flat = text.slice(0, REASON_LENGTH * 4).replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  return chars.length <= REASON_LENGTH ? flat : `${chars.slice(0, REASON_LENGTH - 1).join("")}…`;
}

/** "run failed: every pair (n/n) is a run_error, nothing was scored; the first (SCENARIO x MODEL): …". */
export function runFailureLine(total: number, firstCause: string | null | undefined, firstPair?: string): string {
  if (!firstCause) return `run failed: every pair (${total}/${total}) is a run_error, nothing was scored`;
  return `run failed: every pair (${total}/${total}) is a run_error, nothing was scored; the first${firstPair ? ` (${firstPair})` : ""}: ${reasonLine(firstCause)}`;
}
