// The line `verdict run` and `verdict start` print when no pair of a run got as far as an answer
// (every one a run_error: the agent was unreachable, or answered nothing), with the first cause,
// so a user sees why without opening the saved report.

/** "run failed: every pair (n/n) is a run_error, nothing was scored; the first: …". */
export function runFailureLine(total: number, firstCause: string | null | undefined): string {
  return `run failed: every pair (${total}/${total}) is a run_error, nothing was scored${firstCause ? `; the first: ${firstCause}` : ""}`;
}
