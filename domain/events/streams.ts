// Stream ids are `<type>-<id>` (DESIGN.md "The event model"). Every part is checked against one
// strict pattern so nothing path-like or SQL-like ever becomes part of a stream id, even though
// adapters parameterise everything anyway.
import { createHash } from "node:crypto";
import { DomainError } from "./domainError.js";

/**
 * ASCII letters, digits, `_` and `-`, starting with a letter or digit, at most 100 characters, never
 * "--" (an SQL comment; the PostgreSQL adapter refuses it in stream ids too).
 */
export const ID_PATTERN = /^(?!.*--)[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;
/**
 * ID_PATTERN in words, every rule of it: a refusal that left out "--" or the length was a puzzle,
 * and one that said "letters" refused `多言語` for not being letters.
 */
export const ID_RULE = '1-100 ASCII letters (a-z, A-Z), digits, "_" or "-", starting with a letter or digit, without "--"';
/** The EventStore adapters' limit on a whole stream id. */
export const MAX_STREAM_ID_LENGTH = 200;

export function assertId(value: unknown, field: string): string {
  if (typeof value !== "string" || !ID_PATTERN.test(value)) {
    throw DomainError.validation(
      `${field} must be ${ID_RULE} (got ${JSON.stringify(value)})`,
      field,
    );
  }
  return value;
}

function streamId(id: string): string {
  if (id.length > MAX_STREAM_ID_LENGTH) {
    throw DomainError.validation(`stream id ${id} is ${id.length} characters, over the ${MAX_STREAM_ID_LENGTH} limit`, "streamId");
  }
  return id;
}

export function isValidId(value: unknown): value is string {
  return typeof value === "string" && ID_PATTERN.test(value);
}

export function catalogStream(tenant: string, key: string): string {
  return streamId(`catalog-${assertId(tenant, "tenant")}.${assertId(key, "key")}`);
}

export function evaluationStream(evaluationId: string): string {
  return `evaluation-${assertId(evaluationId, "evaluation_id")}`;
}

export function runStream(runId: string): string {
  return `run-${assertId(runId, "run_id")}`;
}

/**
 * One stream per (tenant, agent, name) reserving an evaluation name. A name or an agent may hold
 * any text, so the id is `evaluation_name-` and the SHA-256 of the three as a JSON array (no
 * separator one of them could contain): always a valid id, and it tells a reader of the log
 * nothing about the name. Compared exactly as given: the same name in another case or with other
 * inner spacing is another name.
 */
export function evaluationNameStream(tenant: string, agent: string, name: string): string {
  const digest = createHash("sha256").update(JSON.stringify([assertId(tenant, "tenant"), agent, name]), "utf8").digest("hex");
  return `evaluation_name-${digest}`;
}

/**
 * One stream per (tenant, agent): the agent's releases (AgentReleaseRecorded). An agent's name is
 * any text, as evaluations carry it, so the id is `agent-` and the SHA-256 of the two as a JSON
 * array, as evaluationNameStream does: another tenant's agent of the same name is another stream.
 */
export function agentStream(tenant: string, agent: string): string {
  const digest = createHash("sha256").update(JSON.stringify([assertId(tenant, "tenant"), agent]), "utf8").digest("hex");
  return `agent-${digest}`;
}

/** One stream per scenario x model pair: `n` is the pair's index in the run's frozen selection. */
export function resultStream(runId: string, n: number): string {
  if (!Number.isInteger(n) || n < 0) throw DomainError.validation(`pair index must be a whole number >= 0 (got ${n})`, "n");
  return `result-${assertId(runId, "run_id")}.${n}`;
}

/** The calendar month (UTC) `at` falls in, as usage streams name it: `2026-11`. */
export function usageMonth(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/**
 * One stream per (tenant, calendar month UTC): what the tenant used that month (UsageMetered).
 * A month per stream keeps the stream a start reads to check its quota to one month's events.
 */
export function usageStream(tenant: string, month: string): string {
  if (!/^\d{4}-\d{2}$/.test(month)) throw DomainError.validation(`month must be YYYY-MM (got ${JSON.stringify(month)})`, "month");
  return streamId(`usage-${assertId(tenant, "tenant")}.${month}`);
}

export const STREAM_PREFIXES = {
  catalog: "catalog-",
  evaluation: "evaluation-",
  evaluationName: "evaluation_name-",
  agent: "agent-",
  run: "run-",
  result: "result-",
  usage: "usage-",
} as const;
