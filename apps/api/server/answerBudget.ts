// One request's answer budget: the bytes its heavy fields (a whole run's audit, report or list;
// heavyFields.ts) may answer together. The query's price (queryLimits.ts) counts fields, not
// bytes: 7 aliased `runAudit` of a 10,000-pair run fitted under it and answered 178 MB, taking
// the API to 1.6 GB. graphql-js resolves sibling fields at once, so charging each value as it
// arrived would still hold all seven before the first was refused: heavy fields take turns
// instead, each loaded and charged before the next starts, so a request holds its budget plus
// one value at most. The process's pool (answerPool.ts) bounds what all requests hold together,
// and what one tenant's requests hold.
import { ApiError } from "./errors.js";
import type { AnswerPool } from "./answerPool.js";
import { shownBytes } from "./shownBytes.js";

/** Where a request's heavy answers are held while it lasts: the process's pool, in its tenant's share. */
export interface PoolShare {
  pool: AnswerPool;
  tenant: string;
}

/** What a request over its budget is told to do instead. */
const INSTEAD = "ask for fewer heavy fields in one request, page `results` (and `matrix`, `fixItems`, `scenarios`, `catalogs`) with `first:`/`after:`, or export the report as HTML or Markdown over REST (report, report.md)";

/** How a heavy field's schema description says what its null means. */
export const OVER_BUDGET = "Null, with a PAYLOAD_TOO_LARGE error at its path, when it would take the request's answer past its budget (maxAnswerBytes).";

export class AnswerBudget {
  private spent = 0;
  /** Bytes taken from the process's pool and not yet given back. */
  private pooled = 0;
  /** Set once the request's answer was written or its operation ended: it takes nothing more. */
  private released = false;
  /** Aborted on release: a field still waiting for a load slot then leaves the queue. */
  private readonly ended = new AbortController();
  /** Milliseconds this request's heavy fields have waited for load slots so far: they share one wait. */
  private waited = 0;
  /** The turn of the heavy field loaded last: the next waits for it. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    readonly maxBytes: number,
    private readonly share: PoolShare | null = null,
  ) {}

  /**
   * `load`s the field at `path` once every heavy field before it in this request is loaded and
   * charged, then charges its value's `weight`. A value that would take the request past its
   * budget is dropped and PAYLOAD_TOO_LARGE thrown instead; the rest of the query still answers.
   */
  charge<T>(path: string, load: () => Promise<T> | T, weight: (value: T) => number): Promise<T> {
    const result = this.turn.then(async () => {
      // Checked once a load slot is free: a request may have ended while it waited.
      const value = this.share ? await this.loadInSlot(this.share, path, load) : await this.loadWhileOpen(path, load);
      // Loaded after the request ended (its client left): dropped, so nothing is held for it.
      this.mustBeOpen(path);
      this.take(path, weight(value));
      return value;
    });
    this.turn = result.catch(() => undefined);
    return result;
  }

  /**
   * `load` in one of the tenant's load slots; a request that ended while it waited says so. The
   * request's fields share one wait (the pool's loadWaitMs): each waiting its own let a request
   * of ten aliased heavy fields wait ten times as long before it answered. A load's own time
   * is not counted: the wait bounds waiting, never loading.
   */
  private async loadInSlot<T>(share: PoolShare, path: string, load: () => Promise<T> | T): Promise<T> {
    const asked = performance.now();
    let granted: number | undefined;
    const inSlot = () => {
      granted = performance.now();
      return this.loadWhileOpen(path, load);
    };
    try {
      return await share.pool.loading(share.tenant, inSlot, { subject: `\`${path}\``, signal: this.ended.signal, waitMs: share.pool.loadWaitMs - this.waited });
    } catch (error) {
      this.mustBeOpen(path);
      throw error;
    } finally {
      this.waited += (granted ?? performance.now()) - asked;
    }
  }

  private take(path: string, bytes: number): void {
    if (this.spent + bytes > this.maxBytes) {
      throw new ApiError(
        "PAYLOAD_TOO_LARGE",
        `\`${path}\` would take this request's answer past its budget of ${shownBytes(this.maxBytes)} (about ${shownBytes(bytes)}, with ${shownBytes(this.spent)} already answered; VERDICT_API_MAX_ANSWER_BYTES); ${INSTEAD}`,
      );
    }
    if (this.share) {
      this.share.pool.take(this.share.tenant, bytes, `\`${path}\``, INSTEAD);
      this.pooled += bytes;
    }
    this.spent += bytes;
  }

  /**
   * Gives what the request took back to the process's pool, once its answer is written or its
   * operation ended. Final: a field still loading then (its client left mid-operation) takes
   * nothing, and one still waiting for a load slot leaves the queue, so nothing is held or
   * waited for on behalf of a request that is gone; later calls give nothing.
   */
  release(): void {
    this.released = true;
    this.ended.abort();
    this.share?.pool.give(this.share.tenant, this.pooled);
    this.pooled = 0;
  }

  private loadWhileOpen<T>(path: string, load: () => Promise<T> | T): Promise<T> | T {
    this.mustBeOpen(path);
    return load();
  }

  private mustBeOpen(path: string): void {
    if (this.released) throw new ApiError("UNAVAILABLE", `\`${path}\`: the request ended before this field was answered`);
  }
}
