// Relay-style pages with opaque cursors (base64url JSON of the ordering key).
import { DomainError, isStorableText } from "@verdict/domain";
import type { Connection } from "./types.js";

/** Paging arguments as GraphQL gives them (an argument left out is null). */
export interface ListPageArgs {
  first?: number | null;
  after?: string | null;
}

export function pageSize(first: number | undefined): number {
  const size = first ?? 20;
  if (!Number.isInteger(size) || size < 0 || size > 100) throw DomainError.validation(`first must be a whole number from 0 to 100 (got ${size})`, "first");
  return size;
}

function encodeCursor(parts: unknown[]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

/** What one part of a cursor must be: what the query binds it to takes nothing else. */
type CursorPart = "timestamp" | "text" | "integer";

/** An ISO timestamp whose date exists: Date.parse rolls 2026-02-30 over to March, PostgreSQL refuses it. */
function isCalendarTimestamp(text: string): boolean {
  const date = /^(\d{4})-(\d\d)-(\d\d)T/.exec(text);
  if (!date || !Number.isFinite(Date.parse(text))) return false;
  const [year, month, day] = date.slice(1).map(Number);
  const calendar = new Date(Date.UTC(year, month - 1, day));
  return calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day;
}

const PART_CHECKS: Record<CursorPart, (part: unknown) => boolean> = {
  timestamp: (part) => typeof part === "string" && isCalendarTimestamp(part),
  text: (part) => typeof part === "string" && isStorableText(part),
  integer: (part) => Number.isSafeInteger(part),
};

/**
 * The parts of a cursor this list gave out. A forged one is a validation error, not a query
 * that fails in the database (`["nope", "x"]` as a timestamp, `[1e400]` as a run number).
 */
function decodeCursor(cursor: string, shape: CursorPart[]): unknown[] {
  try {
    const parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (Array.isArray(parts) && parts.length === shape.length && parts.every((p, i) => PART_CHECKS[shape[i]](p))) return parts;
  } catch {
    // falls through to the validation error
  }
  throw DomainError.validation("after is not a cursor this list gave out", "after");
}

/**
 * The parts after `scope` of a cursor that `connection(..., scope, ...)` gave out for this list:
 * another list's cursor (another tenant's evaluations, another evaluation's runs) names another
 * scope and is a validation error, as a made-up one is. Cursors are not signed: one written in
 * the shape of this list's is read as a place in it, and the query stays within the caller's rows.
 */
export function decodeScopedCursor(cursor: string, scope: string, shape: CursorPart[]): unknown[] {
  const [cursorScope, ...parts] = decodeCursor(cursor, ["text", ...shape]);
  if (cursorScope !== scope) throw DomainError.validation("after is not a cursor this list gave out", "after");
  return parts;
}

/** A page of rows read one more than `size` (so it knows whether more follow), each cursor `[scope, ...cursorOf(row)]`. */
export function connection<T>(rows: T[], size: number, totalCount: number, scope: string, cursorOf: (row: T) => unknown[]): Connection<T> {
  const nodes = rows.slice(0, size);
  const edges = nodes.map((node) => ({ cursor: encodeCursor([scope, ...cursorOf(node)]), node }));
  return { edges, pageInfo: { hasNextPage: rows.length > size, endCursor: edges.length ? edges[edges.length - 1].cursor : null }, totalCount };
}

/** How many items a page of a list read whole holds: the whole list unless `first` says fewer. */
function wholeListPageSize(first: number | null | undefined, length: number): number {
  if (first === undefined || first === null) return length;
  if (!Number.isInteger(first) || first < 0) throw DomainError.validation(`first must be a whole number, 0 or more (got ${first})`, "first");
  return first;
}

/**
 * A page of a list already read whole (a run's results, its fix items, a suite's scenarios), in
 * the list's order. `keyOf` gives each item a whole number that rises along the list (a result's
 * n; by default its place), and a cursor holds the list's name and the key of its page's last
 * item: the next page starts at the first item past it. The name makes a cursor of another list
 * (which would page this one from a wrong place, or end it) a validation error. Without `first`
 * the page is the rest of the list.
 */
export function listPage<T>(
  items: readonly T[],
  args: ListPageArgs,
  list: string,
  keyOf: (item: T, index: number) => number = (_item, index) => index,
): Connection<T> {
  const size = wholeListPageSize(args.first, items.length);
  let start = 0;
  if (args.after) {
    const after = afterKey(args.after, list);
    while (start < items.length && keyOf(items[start], start) <= after) start++;
  }
  const end = Math.min(items.length, start + size);
  const edges: Connection<T>["edges"] = [];
  for (let i = start; i < end; i++) edges.push(new ListEdge(items[i], list, keyOf(items[i], i)));
  return { edges, pageInfo: { hasNextPage: end < items.length, endCursor: edges.length ? edges[edges.length - 1].cursor : null }, totalCount: items.length };
}

/** An edge whose cursor is encoded only when read: a whole run's results rarely ask for 3,000 cursors. */
class ListEdge<T> {
  constructor(
    readonly node: T,
    private readonly list: string,
    private readonly key: number,
  ) {}

  get cursor(): string {
    return encodeCursor([this.list, this.key]);
  }
}

/** The key an `after` cursor of `list` holds; any other cursor is a validation error. */
function afterKey(cursor: string, list: string): number {
  const [name, key] = decodeCursor(cursor, ["text", "integer"]) as [string, number];
  if (name !== list || key < 0) throw DomainError.validation("after is not a cursor this list gave out", "after");
  return key;
}
