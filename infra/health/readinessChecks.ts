// Readiness as a list of checks, each a trivial question to one dependency with a deadline, for
// the API's /readyz (apps/api/server/readiness.ts) and the worker's and projector's probe port
// (probeServer.ts). A reason names which dependency failed ("its database"), never where it is:
// a probe answers anyone who can reach the port, without a key. The process's log names it by
// host:port/database (never a user or password), with the driver's own error on one line.
import type { EventStore } from "@verdict/domain";
import { RepeatLimiter } from "../logging/index.js";
import { queryTimeoutOf, whereOf } from "../pg/index.js";

/** How long a probe waits for each check: a probe's own timeout is often 1-5 s, and a trivial query on a healthy database takes milliseconds. */
export const READINESS_DEADLINE_MS = 2_000;

/** Each failed check's reason, or none when every check passed; never rejects. */
export type Readiness = () => Promise<string[]>;

export interface ReadinessCheck {
  /** What the operator is told it is ("event store", "read models"). */
  what: string;
  /** How the answer names its database ("its database"): nothing of where it is. */
  database: string;
  /** How the log names it: "database at host:port/db", or the answer's words when no URL was given. */
  logged: string;
  /** Resolves to a problem in words, or null when ready; rejects when the database failed. */
  ask: () => Promise<string | null>;
}

/** `database at host:port/db` for the log, or the answer's own words when the URL is not known (embedded). */
export function databaseAt(url: string | null | undefined, unnamed: string): string {
  return url ? `database at ${whereOf(url)}` : unnamed;
}

/** A stream no event is written to: asking its version reads one indexed row that is never there. */
const PROBE_STREAM = "readiness-probe";

/** The event store's check, the same in every process: one stream's version, within the deadline. */
export function eventStoreCheck(store: Pick<EventStore, "streamVersion">, url: string | null | undefined): ReadinessCheck {
  return { what: "event store", database: "its database", logged: databaseAt(url, "its database"), ask: async () => (await store.streamVersion(PROBE_STREAM), null) };
}

/**
 * The checks as one Readiness. `whoseLog` is how a reason points at the log ("the API's log");
 * `extra` adds reasons that are not a query (a process stopping, a broker it saw go away).
 */
export function readinessOf(checks: readonly ReadinessCheck[], options: { log: (line: string) => void; whoseLog: string; extra?: () => string[] }): Readiness {
  const asked = checks.map((check) => ({ ...check, ask: singleFlight(check.ask) }));
  // A probe asks every few seconds: the same failure is logged once per 30 s while it lasts.
  const lines = new RepeatLimiter();
  const logged = (line: string) => {
    const passed = lines.pass(line);
    if (passed !== null) options.log(passed);
  };
  return async () => {
    const reasons = await Promise.all(asked.map((check) => reasonOf(check, logged, options.whoseLog)));
    return [...(options.extra?.() ?? []), ...reasons.filter((reason) => reason !== null)];
  };
}

async function reasonOf(check: ReadinessCheck, log: (line: string) => void, whoseLog: string): Promise<string | null> {
  try {
    const answer = await settledWithin(check.ask(), READINESS_DEADLINE_MS);
    if (answer === LATE) return `${check.what}: ${check.database} did not answer within ${READINESS_DEADLINE_MS} ms`;
    return answer === null ? null : `${check.what}: ${answer}`;
  } catch (error) {
    // One line, no stack (the error is not passed on): a probe asks every few seconds, and a
    // dozen lines of driver frames per failure buried what the line is for, naming the database.
    log(`/readyz: ${check.what}, ${check.logged}, failed a trivial query: ${errorLine(error)}`);
    // The query deadline (VERDICT_PG_QUERY_TIMEOUT_MS, when set below ours) passed first.
    const deadline = queryTimeoutOf(error);
    if (deadline && !deadline.byServer) return `${check.what}: ${check.database} did not answer within ${deadline.queryTimeoutMs} ms (VERDICT_PG_QUERY_TIMEOUT_MS)`;
    // Only a code (ECONNREFUSED, 3D000) is shown: the driver's words may hold the failed SQL.
    const code = (error as { code?: unknown } | null)?.code;
    const shown = typeof code === "string" && /^[A-Z0-9_]{1,20}$/.test(code) ? ` (${code})` : "";
    return `${check.what}: ${check.database} failed a trivial query${shown}; ${whoseLog} has the error`;
  }
}

/** The driver's message and code on one line ("connect ECONNREFUSED 127.0.0.1:5432 (ECONNREFUSED)"); an AggregateError has only its code. */
function errorLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error).replace(/\s*\n\s*/g, " ");
  const code = (error as { code?: unknown }).code;
  const message = (error.message || error.name).replace(/\s*\n\s*/g, " ");
  return typeof code === "string" && code !== "" ? `${message} (${code})` : message;
}

const LATE = Symbol("late");

/** `work`'s value, or LATE once `ms` passed first (the work goes on: singleFlight keeps the next probe from starting another). */
function settledWithin<T>(work: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * At most one query in flight per database: probes every few seconds against a database that
 * hangs would otherwise queue one query each on the pool the process's work uses.
 */
function singleFlight<T>(ask: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | null = null;
  return () =>
    (inFlight ??= Promise.resolve()
      .then(ask)
      .finally(() => {
        inFlight = null;
      }));
}
