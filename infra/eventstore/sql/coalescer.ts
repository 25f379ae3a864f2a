// Requests made while earlier ones are in flight are sent together as one: on PGlite every
// statement costs about a millisecond of single-threaded work whatever it carries, so a thousand
// pairs a second only fit when their appends (and version checks) share statements. At most
// `maxInFlight` batches run at once. A batch goes out once the current turn of the event loop is
// done (setImmediate), not on the next microtask: callers that reach the store in one turn, many
// microtasks apart, go together. (On the next microtask, a burst of replay jobs let through an
// agent limiter of 4 went out as 4, then 28: twice the statements.) A lone caller waits only for
// that turn to end. A batch that fails as a whole is retried one request at a time, so each
// caller gets its own answer or its own error.
interface Waiting<I, O> {
  input: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

interface CoalescerOptions<I, O> {
  /** Answers every input, in order; may reject as a whole. */
  many: (inputs: I[]) => Promise<O[]>;
  /** One input alone: the fallback after a batch failed. */
  one: (input: I) => Promise<O>;
  maxInFlight?: number;
  maxBatch?: number;
}

export class Coalescer<I, O> {
  #waiting: Array<Waiting<I, O>> = [];
  #inFlight = 0;
  #scheduled = false;

  constructor(private readonly options: CoalescerOptions<I, O>) {}

  submit(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#waiting.push({ input, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= (this.options.maxInFlight ?? 1) || this.#waiting.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#flush();
    });
  }

  async #flush(): Promise<void> {
    if (this.#inFlight >= (this.options.maxInFlight ?? 1) || this.#waiting.length === 0) return;
    const batch = this.#waiting.splice(0, this.options.maxBatch ?? 256);
    this.#inFlight += 1;
    try {
      if (batch.length === 1) {
        await this.options.one(batch[0].input).then(batch[0].resolve, batch[0].reject);
        return;
      }
      let outputs: O[] | null = null;
      try {
        outputs = await this.options.many(batch.map((w) => w.input));
      } catch {
        // Someone's request spoiled the batch: each alone, so only that one fails.
        for (const w of batch) await this.options.one(w.input).then(w.resolve, w.reject);
        return;
      }
      batch.forEach((w, i) => w.resolve(outputs[i]));
    } finally {
      this.#inFlight -= 1;
      this.#schedule();
    }
  }
}
