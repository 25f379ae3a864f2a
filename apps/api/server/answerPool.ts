// The process's answer pool: the bytes of heavy answers (answerBudget.ts) all requests of one API
// process may hold at once, and how many heavy fields may load at once. A request's own budget
// (64 MiB) kept one request from running the API out of memory, but twenty such requests at once
// still held twenty budgets: the pool bounds their sum. A request keeps what it took until its
// answer was written (HTTP) or its operation completed (graphql-ws), then gives it back.
import { Limiter } from "@verdict/infra/limiter";

/** Heavy fields loading at once in the process: each load holds its value before it is charged. */
const LOADS_AT_ONCE = 4;

export class AnswerPool {
  #held = 0;
  readonly #loads = new Limiter(LOADS_AT_ONCE);

  constructor(readonly maxBytes: number) {}

  /** Bytes the requests in flight hold. */
  get held(): number {
    return this.#held;
  }

  /** Takes `bytes` when they fit beside what is held; false (nothing taken) when they do not. */
  take(bytes: number): boolean {
    if (this.#held + bytes > this.maxBytes) return false;
    this.#held += bytes;
    return true;
  }

  /** Gives back bytes taken. */
  give(bytes: number): void {
    this.#held = Math.max(0, this.#held - bytes);
  }

  /** Runs `load` once fewer than LOADS_AT_ONCE heavy fields are loading in the process. */
  loading<T>(load: () => Promise<T> | T): Promise<T> {
    return this.#loads.run(load);
  }
}
