// The process's answer pool: the bytes of heavy answers (answerBudget.ts, the REST reports) all
// requests of one API process may hold at once, and how many heavy answers may load at once. A
// request's own budget (64 MiB) kept one request from running the API out of memory, but twenty
// such requests at once still held twenty budgets: the pool bounds their sum. A request keeps
// what it took until its answer was written (HTTP) or its operation completed (graphql-ws), then
// gives it back.
//
// Fair between tenants: one tenant may hold at most its share of the bytes (half the pool by
// default) and use at most half the load slots, so one tenant's large answers leave another room
// rather than making it retry. What a tenant is refused says its own share, never what others hold.
//
// A load waits for its slots at most loadWaitMs (VERDICT_API_HEAVY_LOAD_WAIT_MS), then answers
// UNAVAILABLE (retry): a tenant's slow heavy loads had queued its next ones without end, and a
// client waited on a request that might never start. A load that gives up, or whose client left
// (`signal`), leaves the queue at once, so no slot is ever handed to a waiter that is gone.
import { linkSignals } from "@verdict/infra/abort";
import { Limiter } from "@verdict/infra/limiter";
import { SettingError, TIMER_MAX_MS } from "@verdict/infra/settings";
import { ApiError } from "./errors.js";
import { shownBytes } from "./shownBytes.js";

/** Heavy answers loading at once in the process: each load holds its value before it is charged. */
const LOADS_AT_ONCE = 4;

/** Of those, one tenant's: the other half is always left to other tenants. */
const TENANT_LOADS_AT_ONCE = LOADS_AT_ONCE / 2;

/** How long a heavy load waits for its slots when the deployment sets nothing (VERDICT_API_HEAVY_LOAD_WAIT_MS). */
export const DEFAULT_LOAD_WAIT_MS = 30_000;


/** What a load is called in its refusal, and what ends its wait early (its request ended). */
export interface LoadWait {
  subject?: string;
  signal?: AbortSignal;
  /**
   * How long this load may still wait (default loadWaitMs): a request's heavy fields share one
   * wait (answerBudget.ts), so a later field waits only what the earlier ones left.
   */
  waitMs?: number;
}

/** What one tenant holds and its load slots; kept only while it holds or loads something. */
interface TenantEntry {
  held: number;
  loads: Limiter;
}

export class AnswerPool {
  #held = 0;
  readonly #loads = new Limiter(LOADS_AT_ONCE);
  readonly #tenants = new Map<string, TenantEntry>();

  constructor(
    readonly maxBytes: number,
    readonly tenantMaxBytes: number,
    readonly loadWaitMs = DEFAULT_LOAD_WAIT_MS,
  ) {
    // Checked here too, not only when read from the environment: a server given 0 or Infinity in
    // code had a timer firing at once, refusing every load that queued.
    if (!Number.isInteger(loadWaitMs) || loadWaitMs < 1 || loadWaitMs > TIMER_MAX_MS) {
      throw new SettingError("VERDICT_API_HEAVY_LOAD_WAIT_MS", `VERDICT_API_HEAVY_LOAD_WAIT_MS=${loadWaitMs}: a heavy load's wait must be a whole number of milliseconds from 1 to ${TIMER_MAX_MS}`);
    }
  }

  /** Bytes the requests in flight hold. */
  get held(): number {
    return this.#held;
  }

  /** Bytes `tenant`'s requests in flight hold. */
  heldBy(tenant: string): number {
    return this.#tenants.get(tenant)?.held ?? 0;
  }

  /** Tenants with an entry (holding or loading something): the bookkeeping that must not grow. */
  get tenantsTracked(): number {
    return this.#tenants.size;
  }

  /**
   * Takes `bytes` for `tenant`, or throws UNAVAILABLE (nothing taken) naming `subject` when they
   * would take the tenant past its share or the process past the pool; `instead`, when given, is
   * what else the caller may do. An empty pool takes any answer, even one larger than the share or
   * the pool: a REST report that big is still exported, alone (nothing else fits beside it).
   */
  take(tenant: string, bytes: number, subject: string, instead?: string): void {
    if (this.#held > 0) {
      const retry = `retry in a moment${instead ? `, or ${instead}` : ""}`;
      if (this.heldBy(tenant) + bytes > this.tenantMaxBytes) {
        // Only the tenant's own share is named: what other tenants hold is their business.
        throw new ApiError("UNAVAILABLE", `${subject} (about ${shownBytes(bytes)}) would take the heavy answers this tenant's requests hold past its share of ${shownBytes(this.tenantMaxBytes)} (VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT): ${retry}`);
      }
      if (this.#held + bytes > this.maxBytes) {
        throw new ApiError("UNAVAILABLE", `${subject} (about ${shownBytes(bytes)}) would take the heavy answers this API process holds for all requests past ${shownBytes(this.maxBytes)} (VERDICT_API_MAX_HELD_ANSWER_BYTES): ${retry}`);
      }
    }
    this.#entry(tenant).held += bytes;
    this.#held += bytes;
  }

  /** Gives back bytes `tenant` took. */
  give(tenant: string, bytes: number): void {
    const entry = this.#tenants.get(tenant);
    if (!entry) return;
    const given = Math.min(bytes, entry.held);
    entry.held -= given;
    this.#held -= given;
    this.#dropIfIdle(tenant);
  }

  /**
   * Runs `load` once fewer than TENANT_LOADS_AT_ONCE of `tenant`'s and fewer than LOADS_AT_ONCE
   * of the process's heavy answers are loading. Throws UNAVAILABLE naming `subject` (nothing run)
   * when no slot came within loadWaitMs; `signal` aborting first ends the wait with its reason.
   */
  async loading<T>(tenant: string, load: () => Promise<T> | T, { subject = "the heavy answer", signal, waitMs = this.loadWaitMs }: LoadWait = {}): Promise<T> {
    // One deadline for both waits: the caller waited as long, whichever slot held it up.
    const wait = linkSignals([signal], Math.max(0, waitMs));
    let waitingFor: "tenant" | "process" = "tenant";
    try {
      // The tenant's slot first: while it waits for one it holds none of the process's, which
      // other tenants' loads may take.
      return await this.#entry(tenant).loads.run(() => {
        waitingFor = "process";
        return this.#loads.run(() => {
          // The deadline bounds the wait for a slot, not the load itself.
          wait.dispose();
          return load();
        }, wait.signal);
      }, wait.signal);
    } catch (error) {
      if (wait.timedOut()) throw waitedTooLong(subject, waitingFor, this.loadWaitMs);
      throw error;
    } finally {
      wait.dispose();
      this.#dropIfIdle(tenant);
    }
  }

  #entry(tenant: string): TenantEntry {
    let entry = this.#tenants.get(tenant);
    if (!entry) {
      entry = { held: 0, loads: new Limiter(TENANT_LOADS_AT_ONCE) };
      this.#tenants.set(tenant, entry);
    }
    return entry;
  }

  /** A tenant holding nothing with nothing loading or queued is forgotten: tenants come and go. */
  #dropIfIdle(tenant: string): void {
    const entry = this.#tenants.get(tenant);
    if (entry && entry.held === 0 && entry.loads.idle) this.#tenants.delete(tenant);
  }
}

/**
 * A load that got no slot in time: which slots were busy, never what other tenants load. The wait
 * named is the request's in all (its heavy fields share it), not what this one load had left.
 */
function waitedTooLong(subject: string, waitingFor: "tenant" | "process", waitMs: number): ApiError {
  const slots = waitingFor === "tenant"
    ? `this tenant's ${TENANT_LOADS_AT_ONCE} heavy-answer load slots stayed busy with its other requests' heavy answers`
    : `this API process's ${LOADS_AT_ONCE} heavy-answer load slots stayed busy`;
  return new ApiError("UNAVAILABLE", `${subject} got no load slot: ${slots} for the ${waitMs} ms a request may wait for them (VERDICT_API_HEAVY_LOAD_WAIT_MS): retry in a moment`);
}
