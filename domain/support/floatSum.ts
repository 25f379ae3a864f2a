// Ruby's Array#sum over Floats (reference-core §0: means and totals are `values.sum`): the
// Kahan-Babuska compensated sum, so 0.775 + 0.867 + 0.441 + 0.715 is 2.798, where adding one by
// one gives 2.7979999999999996 and a mean of 0.6995 rounds to 0.699 and fails a 0.7 threshold.

/** A running compensated sum: `add` each value in order, read `value`. */
export class FloatSum {
  #sum = 0;
  #compensation = 0;
  #count = 0;

  add(value: number): void {
    const total = this.#sum + value;
    // Whichever operand is larger keeps its low bits in `total`; the other's lost bits go here.
    if (Math.abs(this.#sum) >= Math.abs(value)) this.#compensation += this.#sum - total + value;
    else this.#compensation += value - total + this.#sum;
    this.#sum = total;
    this.#count += 1;
  }

  /** How many values were added. */
  get count(): number {
    return this.#count;
  }

  get value(): number {
    return this.#sum + this.#compensation;
  }
}

/** The compensated sum of finite numbers (0 for none). */
export function floatSum(values: Iterable<number>): number {
  const sum = new FloatSum();
  for (const value of values) sum.add(value);
  return sum.value;
}
