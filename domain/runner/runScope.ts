// One concurrent run's hold on the replays it started. When the run fails (an onResult or
// aroundEvaluation that threw), the replays still running are aborted, so a host's agent that
// reads its signal stops spending on pairs whose results nobody will see, and no replay starts
// after: a wrapper that calls next() once the run has failed gets a failed replay, uncalled.
import { thrownText } from "../support/index.js";

/** The abort reason a failed run gives the replays it cancels; `cause` is the run's first error. */
export class RunFailedError extends Error {
  constructor(cause: unknown) {
    super(`the run failed (${thrownText(cause)}), so this replay was cancelled`, { cause });
    this.name = "RunFailedError";
  }
}

export class RunScope {
  readonly #running = new Set<AbortController>();
  #failure: RunFailedError | null = null;

  /** The reason the run failed, once it has; null while it runs on. */
  get failure(): RunFailedError | null {
    return this.#failure;
  }

  /** Fails the run with its first error: aborts every replay still running. Later calls do nothing. */
  fail(error: unknown): void {
    if (this.#failure) return;
    this.#failure = new RunFailedError(error);
    for (const controller of this.#running) controller.abort(this.#failure);
    this.#running.clear();
  }

  /** A replay starting: its controller is aborted if the run fails before `settled`. */
  started(controller: AbortController): void {
    this.#running.add(controller);
  }

  settled(controller: AbortController): void {
    this.#running.delete(controller);
  }
}
