// Which pairs of a run have a result, as the dispatcher counts them in log order and saves them
// with its checkpoint: one bit per pair, saved as base64. A re-drive publishes only the pairs
// without one (publishing every pair again put a whole run back on its partition at each
// restart), and a failed run names them. As bits a 3,000-pair run saves 500 characters, where a
// list of numbers was 14 KB, five times a second while the run progresses.

export class PairSet {
  private constructor(private readonly bits: Uint8Array) {}

  static empty(total: number): PairSet {
    return new PairSet(new Uint8Array(Math.ceil(total / 8)));
  }

  /** A set as `toJSON` saved it; undefined when absent or not for `total` pairs (an older checkpoint). */
  static fromJSON(saved: unknown, total: number): PairSet | undefined {
    if (typeof saved !== "string") return undefined;
    const bits = new Uint8Array(Buffer.from(saved, "base64"));
    return bits.length === Math.ceil(total / 8) ? new PairSet(bits) : undefined;
  }

  add(n: number): void {
    this.bits[n >> 3] |= 1 << (n & 7);
  }

  has(n: number): boolean {
    return (this.bits[n >> 3] & (1 << (n & 7))) !== 0;
  }

  /** The pairs of 0..total-1 not in the set, in run order. */
  missing(total: number): number[] {
    const missing: number[] = [];
    for (let n = 0; n < total; n++) if (!this.has(n)) missing.push(n);
    return missing;
  }

  /** What JSON.stringify saves (the dispatcher's checkpoint state). */
  toJSON(): string {
    return Buffer.from(this.bits).toString("base64");
  }
}
