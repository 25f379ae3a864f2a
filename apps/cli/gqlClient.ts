// A small GraphQL client for the CLI: queries and mutations over fetch, subscriptions over
// graphql-ws, both with the API key in the Authorization header / connection params. A request
// that cannot reach the API (refused, DNS, reset, past `timeoutMs`) or is answered other than
// in GraphQL's JSON (an HTML page at a wrong URL, a proxy's error) is an error naming the URL,
// never a fetch or JSON.parse stack trace, and never the key.
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";

/** The API answered with GraphQL errors: the first one's message, `extensions.code` and `field`. */
export class GraphQLRequestError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

/** The API could not be asked: nothing listens, the host is unknown, or it did not answer in time. */
export class ApiUnreachableError extends Error {}

/** Something answered at the URL, but not as a GraphQL API does. */
export class NotGraphQLError extends Error {}

export interface GqlClient {
  request<T>(query: string, variables?: Record<string, unknown>): Promise<T>;
  subscribe<T>(query: string, variables: Record<string, unknown>, onNext: (data: T) => void): Promise<void>;
  get(path: string): Promise<Response>;
  close(): Promise<void>;
}

interface ApiUrls {
  url: string;
  graphqlUrl: string;
  wsUrl: string;
}

interface ClientOptions {
  /** A request not answered in this long is ApiUnreachableError (default: no limit). */
  timeoutMs?: number;
  /** An answer longer than this is NotGraphQLError (default: no limit; the CLI's own API's answers can be large). */
  maxAnswerBytes?: number;
}

interface GraphQLBody {
  data?: unknown;
  errors?: Array<{ message?: unknown; extensions?: { code?: unknown; field?: unknown } }>;
}

/** Why fetch failed, in a word where it has one (ECONNREFUSED, ENOTFOUND). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  return String(cause?.code ?? cause?.message ?? (error as Error).message);
}

/** The answer's text, or NotGraphQLError once it passes `maxBytes`: a hostile or broken server could send without end. */
async function boundedText(urls: ApiUrls, res: Response, maxBytes: number | undefined): Promise<string> {
  if (maxBytes === undefined || !res.body) return await res.text();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = "";
  for await (const chunk of res.body) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes) {
      await res.body.cancel().catch(() => undefined);
      throw new NotGraphQLError(`${urls.graphqlUrl} answered more than ${maxBytes} bytes, more than this request's answer can be: is the URL the Verdict API's base URL (e.g. http://host:4000)?`);
    }
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

async function post(urls: ApiUrls, init: RequestInit, options: ClientOptions): Promise<{ res: Response; text: string }> {
  const { timeoutMs } = options;
  const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(urls.graphqlUrl, { ...init, signal });
    return { res, text: await boundedText(urls, res, options.maxAnswerBytes) };
  } catch (error) {
    const name = (error as { name?: unknown }).name;
    if (name === "TimeoutError") throw new ApiUnreachableError(`the API at ${urls.url} did not answer within ${(timeoutMs ?? 0) / 1000} s`);
    if (error instanceof TypeError && error.message === "fetch failed") throw new ApiUnreachableError(`the API at ${urls.url} cannot be reached (${causeOf(error)})`);
    // The connection closed before the whole answer came.
    if (error instanceof TypeError && error.message === "terminated") throw new ApiUnreachableError(`the API at ${urls.url} broke off its answer (${causeOf(error)})`);
    throw error;
  }
}

/** The answer as GraphQL's JSON, or NotGraphQLError saying what came back instead. */
function graphQLBody(urls: ApiUrls, res: Response, text: string): GraphQLBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  if (typeof body === "object" && body !== null && ("data" in body || "errors" in body)) return body as GraphQLBody;
  const type = res.headers.get("content-type")?.split(";")[0] || "no content-type";
  const location = res.headers.get("location");
  if (res.status >= 300 && res.status < 400 && location) {
    throw new NotGraphQLError(`${urls.graphqlUrl} answered HTTP ${res.status}, a redirect to ${location}, which is not followed (the key would go with it): give the URL it names`);
  }
  throw new NotGraphQLError(`${urls.graphqlUrl} answered HTTP ${res.status} (${type}), not a GraphQL answer: is the URL the Verdict API's base URL (e.g. http://host:4000)?`);
}

export function gqlClient(urls: ApiUrls, apiKey: string, options: ClientOptions = {}): GqlClient {
  const authorization = `Bearer ${apiKey}`;
  let ws: Client | null = null;
  return {
    async request<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
      // A redirect is not followed: the API does not redirect, and the key is not sent on to another address.
      const init: RequestInit = { method: "POST", redirect: "manual", headers: { "content-type": "application/json", authorization }, body: JSON.stringify({ query, variables }) };
      const { res, text } = await post(urls, init, options);
      const body = graphQLBody(urls, res, text);
      const first = body.errors?.[0];
      if (first) {
        const { code, field } = first.extensions ?? {};
        throw new GraphQLRequestError(String(first.message), typeof code === "string" ? code : null, typeof field === "string" ? field : null);
      }
      return body.data as T;
    },
    subscribe<T>(query: string, variables: Record<string, unknown>, onNext: (data: T) => void): Promise<void> {
      ws ??= createClient({ url: urls.wsUrl, webSocketImpl: WebSocket, connectionParams: { Authorization: authorization }, retryAttempts: 0, lazy: true });
      const client = ws;
      return new Promise((resolve, reject) => {
        client.subscribe<T>({ query, variables }, {
          next: (value) => {
            if (value.errors?.length) reject(new GraphQLRequestError(value.errors[0].message, null));
            else onNext(value.data as T);
          },
          error: (error) => reject(Array.isArray(error) ? new GraphQLRequestError(error[0]?.message ?? "subscription failed", null) : error),
          complete: () => resolve(),
        });
      });
    },
    get: (path) => fetch(`${urls.url}${path}`, { headers: { authorization } }),
    async close() {
      await ws?.dispose();
    },
  };
}
