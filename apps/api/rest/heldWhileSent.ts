// The REST reports are the advertised way around a request's answer budget (a whole report too
// large for GraphQL is exported here), so the budget does not apply to them; the process's answer
// pool does (answerPool.ts): each report's load and render takes one of its tenant's load slots,
// and its rendered body's bytes are held from the pool, in its tenant's share, until the response
// is finished or its client went away. Outside the pool, nothing bounded how many reports were
// rendered and held at once. A report waits for its slot at most the pool's loadWaitMs.
import type { Response } from "express";
import type { ApiContext } from "../server/context.js";
import { ApiError } from "../server/errors.js";

/** How long a report refused for room is told to wait (Retry-After): others' answers are sent in moments. */
const RETRY_AFTER_SECONDS = 3;

/** What else the caller of a refused report may do. */
const REPORT_INSTEAD = "ask for one part of it as Markdown (report.md?part=verdict|fix_items|scenario)";

/**
 * Runs `render` in one of the tenant's and the process's load slots. One that got no slot in
 * time answers UNAVAILABLE (503) with a Retry-After header; a client that left while its report
 * waited takes its place out of the queue, and nothing is rendered for it.
 */
export async function renderInSlot<T>(context: ApiContext, res: Response, render: () => Promise<T>): Promise<T> {
  const gone = new AbortController();
  const leave = () => gone.abort(new ApiError("UNAVAILABLE", "the client went away before its report was rendered"));
  if (res.closed) leave();
  else res.once("close", leave);
  let started = false;
  try {
    return await context.answerPool.loading(context.principal.tenant, () => {
      started = true;
      return render();
    }, { subject: "the report", signal: gone.signal });
  } catch (error) {
    // Only the wait's refusal is told when to retry: a render's own failure says what it says.
    if (!started) res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    throw error;
  } finally {
    res.off("close", leave);
  }
}

/**
 * Holds `body`'s bytes from the pool until `res` is closed (finished, or its client left); when
 * they do not fit, throws UNAVAILABLE (503) with a Retry-After header. A body larger than the pool
 * or the tenant's share is held only when the pool holds nothing else (answerPool.ts).
 */
export function holdWhileSent(context: ApiContext, res: Response, body: string): void {
  const { answerPool, principal } = context;
  const bytes = Buffer.byteLength(body);
  try {
    answerPool.take(principal.tenant, bytes, "the report", REPORT_INSTEAD);
  } catch (error) {
    res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    throw error;
  }
  // A client that left while its report rendered closed the response already: nothing is sent.
  if (res.closed) answerPool.give(principal.tenant, bytes);
  else res.once("close", () => answerPool.give(principal.tenant, bytes));
}
