// A client of a running API as any consumer would use it: node:http with keep-alive for GraphQL
// (asking for gzip, as browsers and fetch do), fetch for REST, graphql-ws (with the `ws` package)
// for subscriptions, an API key as `Authorization: Bearer`. GraphQL goes through node:http rather
// than fetch because fetch's web streams cost a client about 1 ms more per 250 KB answer (the
// bench's 20 clients share one process, so that was client time counted as the API's latency).
import { Agent, request } from "node:http";
import { gunzipSync } from "node:zlib";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";

interface GqlAnswer<T> {
  status: number;
  data?: T;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

export interface WireAnswer {
  status: number;
  encoding: string | undefined;
  bytes: Buffer;
}

/** A wire answer's body as text (inflated when it came gzipped). */
export function wireText(answer: WireAnswer): string {
  return (answer.encoding === "gzip" ? gunzipSync(answer.bytes) : answer.bytes).toString("utf8");
}

export interface ApiClient {
  graphqlUrl: string;
  gql<T = any>(key: string, query: string, variables?: Record<string, unknown>): Promise<GqlAnswer<T>>;
  /**
   * The answer as it arrived, neither inflated nor decoded (`encoding` is its content-encoding):
   * for the bench, a query's time to its last byte, as HTTP load tools measure it.
   */
  gqlWire(key: string, query: string, variables?: Record<string, unknown>): Promise<WireAnswer>;
  /** The data, or throws with the errors. */
  ok<T = any>(key: string, query: string, variables?: Record<string, unknown>): Promise<T>;
  get(key: string, path: string): Promise<Response>;
  /** Every message of a subscription until the server completes it; `onNext` sees each as it arrives. */
  subscribe<T = any>(key: string, query: string, variables: Record<string, unknown>, onNext?: (value: T) => void): Promise<T[]>;
  close(): Promise<void>;
}

export function apiClient(graphqlUrl: string): ApiClient {
  const base = graphqlUrl.replace(/\/graphql$/, "");
  const wsUrl = graphqlUrl.replace(/^http/, "ws");
  const clients: Client[] = [];
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });
  const agent = new Agent({ keepAlive: true });
  const gql = async <T>(key: string, query: string, variables?: Record<string, unknown>): Promise<GqlAnswer<T>> => {
    const res = await postJson(graphqlUrl, agent, auth(key), JSON.stringify({ query, variables }));
    const body = JSON.parse(wireText(res)) as { data?: T; errors?: GqlAnswer<T>["errors"] };
    return { status: res.status, data: body.data ?? undefined, errors: body.errors };
  };
  return {
    graphqlUrl,
    gql,
    gqlWire: (key, query, variables) => postJson(graphqlUrl, agent, auth(key), JSON.stringify({ query, variables })),
    async ok<T>(key: string, query: string, variables?: Record<string, unknown>) {
      const answer = await gql<T>(key, query, variables);
      if (answer.errors) throw new Error(`GraphQL ${answer.status}: ${JSON.stringify(answer.errors)}`);
      return answer.data as T;
    },
    get: (key, path) => fetch(`${base}${path}`, { headers: auth(key) }),
    subscribe<T>(key: string, query: string, variables: Record<string, unknown>, onNext?: (value: T) => void) {
      const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${key}` }, retryAttempts: 0, lazy: true });
      clients.push(client);
      const seen: T[] = [];
      return new Promise<T[]>((resolve, reject) => {
        client.subscribe<T>({ query, variables }, {
          next: (value) => {
            if (value.errors) return reject(new Error(`subscription: ${JSON.stringify(value.errors)}`));
            seen.push(value.data as T);
            onNext?.(value.data as T);
          },
          // graphql-ws hands over a GraphQL errors list or a close event rather than an Error.
          error: (error) => reject(error instanceof Error ? error : new Error(`subscription failed: ${JSON.stringify(error)}`)),
          complete: () => resolve(seen),
        });
      });
    },
    async close() {
      await Promise.allSettled(clients.map((c) => c.dispose()));
      agent.destroy();
    },
  };
}

/**
 * POSTs a JSON body; the status and the whole answer's bytes (inflated when gzipped). A kept-alive
 * socket the server closed as idle (its keepAliveTimeout, 5 s) just as the request went out fails
 * with ECONNRESET before the server read anything: that request is sent once more on a new socket,
 * as Node's documentation advises (`request.reusedSocket`). CI saw it once, as "socket hang up".
 */
async function postJson(url: string, agent: Agent, headers: Record<string, string>, body: string): Promise<WireAnswer> {
  try {
    return await postJsonOnce(url, agent, headers, body);
  } catch (error) {
    if (!(error as { reusedSocket?: boolean }).reusedSocket || (error as { code?: string }).code !== "ECONNRESET") throw error;
    return postJsonOnce(url, agent, headers, body);
  }
}

function postJsonOnce(url: string, agent: Agent, headers: Record<string, string>, body: string): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: "POST",
      agent,
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), "accept-encoding": "gzip", ...headers },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, encoding: res.headers["content-encoding"], bytes: Buffer.concat(chunks) });
      });
      res.on("error", reject);
    });
    req.on("error", (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
    req.end(body);
  });
}

export const PROGRESS_SUBSCRIPTION = `subscription ($runId: ID!) { runProgress(runId: $runId) {
  runId status total completed passed failed errored latestResult { scenarioKey modelLabel status }
} }`;

export interface ProgressMessage {
  runProgress: { runId: string; status: string; total: number; completed: number; passed: number; failed: number; errored: number };
}

/** The run's events as the audit shows them: how many of each type, and per pair stream. */
export async function auditCounts(client: ApiClient, key: string, runId: string) {
  const data = await client.ok<{ runAudit: { status: string; events: Array<{ type: string; streamId: string }> } }>(
    key,
    `query ($id: ID!) { runAudit(id: $id) { status events { type streamId } } }`,
    { id: runId },
  );
  const count = (type: string) => data.runAudit.events.filter((e) => e.type === type).length;
  const scoredStreams = data.runAudit.events.filter((e) => e.type === "ResultScored").map((e) => e.streamId);
  return { status: data.runAudit.status, count, scoredStreams, distinctScored: new Set(scoredStreams).size, events: data.runAudit.events };
}
