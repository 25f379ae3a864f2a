// Whole answers to `run` queries about finished runs. A completed or failed run never changes
// again, so the JSON Apollo sent for (tenant, query, variables) is sent again as is: a 3,000-result
// `run` query costs ~15,000 resolved fields through Apollo and graphql-js, a cached one a Map
// lookup. Only queries whose root fields are all `run` (or __typename) and that never leave the
// run (Run.evaluation reads an evaluation, which changes) are kept, only when every run they read
// was terminal and the answer had no errors. The key starts with the tenant: another tenant never
// gets the answer. A rebuild of the read models may change a finished run's rows: the server
// clears the cache when ReadModels.rebuilds notices one, and an answer begun before is not kept.
import { getNamedType, Kind, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import { gzipSync } from "node:zlib";
import { TERMINAL_STATUSES } from "./terminalRunCache.js";

/** What the `run` resolvers of one HTTP request saw (statuses of the runs read). */
export interface ResponseCacheTrace {
  key: string;
  statuses: string[];
  /** The cache's generation when the request began (ResponseCache.generation). */
  generation: number;
}

/** Content type Apollo answers a single result with when the client accepts JSON. */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** Accept headers for which Apollo answers `application/json` (others always go through Apollo). */
const PLAIN_ACCEPT = new Set(["", "*/*", "application/json"]);

/**
 * The cache key of a POSTed GraphQL body, or null when it is not one answer we could keep (a
 * batch, a persisted-query hash without its text, an Accept header asking for another type).
 */
export function responseCacheKey(tenant: string, body: unknown, accept: string | undefined): string | null {
  if (!PLAIN_ACCEPT.has(accept ?? "")) return null;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const { query, variables, operationName } = body as { query?: unknown; variables?: unknown; operationName?: unknown };
  if (typeof query !== "string") return null;
  return JSON.stringify([tenant, operationName ?? null, variables ?? null, query]);
}

const runOnly = new WeakMap<DocumentNode, Map<string, boolean>>();

/** True when the operation reads only `run` at its root and never Run.evaluation (memoized per parsed document). */
export function isRunOnlyQuery(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): boolean {
  let byOperation = runOnly.get(document);
  if (!byOperation) runOnly.set(document, (byOperation = new Map()));
  const name = operation.name?.value ?? "";
  let answer = byOperation.get(name);
  if (answer === undefined) byOperation.set(name, (answer = analyse(schema, document, operation)));
  return answer;
}

function analyse(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): boolean {
  if (operation.operation !== "query") return false;
  const rootOnlyRun = operation.selectionSet.selections.every(
    (s) => s.kind === Kind.FIELD && (s.name.value === "run" || s.name.value === "__typename"),
  );
  if (!rootOnlyRun) return false;
  // Fragments included: a Run.evaluation anywhere in the document keeps the answer out.
  const typeInfo = new TypeInfo(schema);
  let leavesRun = false;
  visit(document, visitWithTypeInfo(typeInfo, {
    Field(node) {
      const parent = typeInfo.getParentType();
      if (parent && getNamedType(parent).name === "Run" && node.name.value === "evaluation") leavesRun = true;
    },
  }));
  return !leavesRun;
}

/** Whether what one request read can be kept: at least one run, every one terminal. */
export function allTerminal(trace: ResponseCacheTrace): boolean {
  return trace.statuses.length > 0 && trace.statuses.every((s) => TERMINAL_STATUSES.has(s));
}

/** One kept answer: its UTF-8 bytes and, when big enough to be worth it, the same bytes gzipped once. */
export interface KeptAnswer {
  body: Buffer;
  gzip: Buffer | null;
}

/**
 * Answers under this size are not compressed (as the `compression` middleware's default
 * threshold): the gzip header and a client's inflate cost more than the bytes saved.
 */
export const GZIP_THRESHOLD = 1024;

/**
 * What an entry costs beyond its key's characters and its bytes, so that `maxBytes` bounds what
 * the cache really holds: with small answers this was most of it (60,000 entries charged 12 MB
 * held ~42 MB). Measured on Node 20 with 124-character keys and 77-byte answers: 376 bytes of
 * heap and arrayBuffers per entry (its Map slot, the entry object, the Buffer's Uint8Array and
 * ArrayBuffer objects, the key string's header), plus ~150 bytes outside those counters (the
 * ArrayBuffer's native backing store record and malloc header, seen in RSS).
 */
export const ENTRY_OVERHEAD_BYTES = 512;

/**
 * The bytes in a buffer of their own. `Buffer.from` puts a small string (under 4 KB) in a slice
 * of an 8 KB slab shared with whatever else the process encoded, and `gzipSync` answers a slice
 * of its 16 KB output chunk: a kept slice holds the whole slab or chunk for as long as it is kept
 * (60,000 answers of 77 bytes, 4.6 MB, each encoded after a 700-byte string as a request's
 * would be: 67 MB of slabs held).
 */
function ownBuffer(bytes: Buffer): Buffer {
  if (bytes.buffer.byteLength === bytes.length) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

/** Serialized answers (UTF-8, sent as is), least recently used dropped first once their cost (key characters, bytes, ENTRY_OVERHEAD_BYTES) is over `maxBytes`. */
export class ResponseCache {
  readonly #entries = new Map<string, KeptAnswer>();
  #bytes = 0;
  #generation = 0;

  constructor(readonly maxBytes = 64 * 1024 * 1024) {}

  /** Raised by clear(): an answer computed from reads begun before it is not kept. */
  get generation(): number {
    return this.#generation;
  }

  /** Forgets every answer (the read models were rebuilt). */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
    this.#generation += 1;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Whether an answer of this many bytes could be kept at all (else it is not worth encoding). */
  fits(bytes: number): boolean {
    return bytes <= this.maxBytes / 4; // one huge answer would evict everything else
  }

  get(key: string): KeptAnswer | undefined {
    const found = this.#entries.get(key);
    if (found !== undefined) {
      this.#entries.delete(key); // most recently used last
      this.#entries.set(key, found);
    }
    return found;
  }

  /** Keeps `text` under `key`, unless the cache was cleared since `generation` (when the answer's reads began). */
  set(key: string, text: string, generation = this.#generation): void {
    if (generation !== this.#generation) return;
    const body = ownBuffer(Buffer.from(text, "utf8"));
    if (!this.fits(key.length + body.length + ENTRY_OVERHEAD_BYTES)) return;
    // Compressed once here rather than per request: a 3,000-result answer is ~250 KB, ~9 KB gzipped.
    const gzip = body.length >= GZIP_THRESHOLD ? ownBuffer(gzipSync(body)) : null;
    const answer = { body, gzip };
    this.#drop(key);
    this.#entries.set(key, answer);
    this.#bytes += costOf(key, answer);
    while (this.#bytes > this.maxBytes) this.#drop(this.#entries.keys().next().value as string);
  }

  #drop(key: string): void {
    const found = this.#entries.get(key);
    if (found === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= costOf(key, found);
  }
}

function costOf(key: string, answer: KeptAnswer): number {
  return key.length + answer.body.length + (answer.gzip?.length ?? 0) + ENTRY_OVERHEAD_BYTES;
}
