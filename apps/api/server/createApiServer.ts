// One HTTP server: Apollo Server 5 at /graphql (express 5), graphql-ws subscriptions on the same
// server and path, and the REST report routes. Every request is authenticated by API key. Built
// in steps, each in its own file: what they share (servingParts.ts), the graphql-ws server
// (graphqlWsServer.ts), Apollo (apolloServer.ts), the HTTP routes (httpRoutes.ts); here, the
// order they are made in, listening, and closing.
import "reflect-metadata";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import type { GraphQLSchema } from "graphql";
import type { ApiDeps } from "./context.js";
import type { ResponseCache } from "./responseCache.js";
import type { TerminalRunCache } from "./terminalRunCache.js";
import type { AnswerPool } from "./answerPool.js";
import { prepareServing } from "./servingParts.js";
import { serveGraphqlWs } from "./graphqlWsServer.js";
import { createApollo } from "./apolloServer.js";
import { mountHttpRoutes } from "./httpRoutes.js";
import { checkCorsOrigins, corsHandler } from "./cors.js";
import type { DatabaseUrls } from "./readiness.js";

export interface ApiServerOptions extends ApiDeps {
  /** Port on 127.0.0.1 (0 picks a free one; default 4000). */
  port?: number;
  host?: string;
  /** Whole answers about finished runs (default: a fresh 64 MB one; tests pass their own to look inside). */
  responseCache?: ResponseCache;
  /** What is kept about finished runs (default: a fresh one; tests pass their own to look inside). */
  runCache?: TerminalRunCache;
  /** The heavy answers held at once (default: one sized by the limits; tests pass their own to look inside). */
  answerPool?: AnswerPool;
  /**
   * How long a verified API key is trusted without asking `apiKeys` again (default 1000 ms; 0
   * asks on every request). A key revoked by another process is refused after at most this long.
   */
  keyCacheMs?: number;
  /**
   * Origins a browser page may call the API from (CORS; `VERDICT_API_CORS_ORIGINS`), each as a
   * browser sends it (`https://dash.example.com`), or `["*"]` for any; default none: no CORS
   * headers at all. An entry that is not an origin is refused (SettingError).
   */
  corsOrigins?: readonly string[];
  /**
   * The event store's and the read models' PostgreSQL URLs, for /readyz to name a database that
   * failed its check (host:port/database only, never the credentials; readiness.ts). Unset or
   * null: named by what it holds.
   */
  databaseUrls?: DatabaseUrls;
}

export interface ApiServer {
  /** Base URL, e.g. http://127.0.0.1:4000 (GraphQL at `${url}/graphql`). */
  url: string;
  graphqlUrl: string;
  wsUrl: string;
  schema: GraphQLSchema;
  /** The node HTTP server it listens with (a host may watch it; tests emit its runtime errors). */
  httpServer: Server;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

export async function createApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const cors = options.corsOrigins === undefined ? null : corsHandler(checkCorsOrigins(options.corsOrigins, "corsOrigins"));
  const parts = await prepareServing(options);
  const app = express();
  // First: a preflight is answered before any key is checked, and every answer, errors included, carries the headers.
  if (cors) app.use(cors);
  const httpServer = createServer(app);
  // Before Apollo: its drain disposes the graphql-ws server.
  const ws = serveGraphqlWs(httpServer, parts);
  const apollo = createApollo(parts, httpServer, ws);
  await apollo.start();
  mountHttpRoutes(app, parts, apollo);

  const stop = async () => {
    await apollo.stop(); // drains HTTP and disposes the ws server
    await new Promise<void>((resolve) => ws.wsServer.close(() => resolve()));
    parts.stop();
  };
  // A listen refused (a port taken since the caller looked) stops what was started, so a caller
  // that tries again on another port (verdict start's fallback) leaves nothing running behind.
  const address = await listen(httpServer, options.port ?? 4000, options.host ?? "127.0.0.1").catch(async (error: unknown) => {
    await stop().catch(() => undefined);
    throw error;
  });
  // Listening, the server has no 'error' listener of its own (ws, in noServer mode, adds none), so
  // a runtime error such as a failed accept (EMFILE) would be an uncaught exception ending the
  // process: it is logged and the server keeps serving. Not before listen: a taken port
  // (EADDRINUSE) is listen's rejection, which the process entry says in one line.
  httpServer.on("error", (error) => parts.log("HTTP server error", error));
  const url = `http://${address.address}:${address.port}`;
  let closing: Promise<void> | null = null;
  return {
    url,
    graphqlUrl: `${url}/graphql`,
    wsUrl: `ws://${address.address}:${address.port}/graphql`,
    schema: parts.schema,
    httpServer,
    close() {
      closing ??= stop();
      return closing;
    },
  };
}
