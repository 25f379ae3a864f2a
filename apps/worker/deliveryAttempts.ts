// How many times this consumer has been handed each job (its partition and offset), for
// DeliveredJob.attempt. A job's count goes once its handler succeeds. One that failed here and
// whose partition then moved to another member in a rebalance is handled there (with a count of
// its own) and never again here, so its count would have stayed for the consumer's lifetime:
// counts go too when their partition is no longer this member's. A partition that comes back
// starts its jobs' counts again, as any member taking it over does.
export class DeliveryAttempts {
  readonly #byPartition = new Map<number, Map<string, number>>();

  /** Counts one more delivery of the job and returns its number (1 for the first). */
  next(partition: number, offset: string): number {
    let counts = this.#byPartition.get(partition);
    if (!counts) this.#byPartition.set(partition, (counts = new Map()));
    const attempt = (counts.get(offset) ?? 0) + 1;
    counts.set(offset, attempt);
    return attempt;
  }

  succeeded(partition: number, offset: string): void {
    const counts = this.#byPartition.get(partition);
    counts?.delete(offset);
    if (counts?.size === 0) this.#byPartition.delete(partition);
  }

  /** Forgets the counts of every partition but these (the member's assignment after a rebalance). */
  keepOnly(partitions: readonly number[]): void {
    const kept = new Set(partitions);
    for (const partition of this.#byPartition.keys()) if (!kept.has(partition)) this.#byPartition.delete(partition);
  }

  /** Jobs with a count (for tests and metrics). */
  get size(): number {
    let size = 0;
    for (const counts of this.#byPartition.values()) size += counts.size;
    return size;
  }
}
