// A small GraphQL client for the CLI's own API: queries and mutations over fetch, subscriptions
// over graphql-ws, both with the API key in the Authorization header / connection params.
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";

class GraphQLRequestError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
  }
}

export interface GqlClient {
  request<T>(query: string, variables?: Record<string, unknown>): Promise<T>;
  subscribe<T>(query: string, variables: Record<string, unknown>, onNext: (data: T) => void): Promise<void>;
  get(path: string): Promise<Response>;
  close(): Promise<void>;
}

export function gqlClient(urls: { url: string; graphqlUrl: string; wsUrl: string }, apiKey: string): GqlClient {
  const authorization = `Bearer ${apiKey}`;
  let ws: Client | null = null;
  return {
    async request<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
      const res = await fetch(urls.graphqlUrl, {
        method: "POST",
        headers: { "content-type": "application/json", authorization },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { data?: T; errors?: Array<{ message: string; extensions?: { code?: string } }> };
      if (body.errors?.length) throw new GraphQLRequestError(body.errors[0].message, body.errors[0].extensions?.code ?? null);
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
