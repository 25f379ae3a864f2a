// graphql-ws on the API's HTTP server, at /graphql: each socket authenticated by its key in
// connection_init (asked again per operation, and while it stays open), operations held to the
// socket's and the key's limits and checked as an HTTP request is, errors answered as over HTTP.
import type { Server } from "node:http";
import { WebSocketServer } from "ws";
import { useServer } from "graphql-ws/use/ws";
import { GraphQLError, parse, specifiedRules, validate, type DocumentNode } from "graphql";
import { authenticate, type ApiContext } from "./context.js";
import type { AnswerBudget } from "./answerBudget.js";
import { ApiError, classify, formatError, loggedDatabaseUnavailable } from "./errors.js";
import { inputProblem } from "./inputText.js";
import { depthMessage, MAX_JSON_DEPTH, tooDeep } from "./jsonDepth.js";
import { answerAsStream, tooLargeAsPayloadError } from "./wsTooLarge.js";
import { closeSocketWhenKeyRefused } from "./socketKeyWatch.js";
import { KeyOperations } from "./keyOperations.js";
import { peerWentAway } from "./peerGone.js";
import { logOversizedMessagesQuietly } from "./oversizedMessages.js";
import { byteLimit } from "./byteLimit.js";
import type { ServingParts } from "./servingParts.js";

export interface GraphqlWsServer {
  wsServer: WebSocketServer;
  /** Ends graphql-ws's subscriptions and sockets (Apollo's drain calls it). */
  dispose: () => void | Promise<void>;
}

/** The Authorization a graphql-ws client sent in connection_init's payload. */
function bearerOf(params: Record<string, unknown> | undefined): unknown {
  return params?.Authorization ?? params?.authorization;
}

export function serveGraphqlWs(httpServer: Server, parts: ServingParts): GraphqlWsServer {
  const { limits, deps, log, databaseLines, wsFormatError, schema, rules, costProblem, newContext } = parts;
  // A socket message is held to the HTTP body limit (ws would otherwise take 100 MiB); one over it
  // closes the socket with 1009 (message too big). Upgrades are handed over here rather than ws
  // being given the HTTP server: ws re-emitted the server's errors, and graphql-ws logged a
  // port already in use (EADDRINUSE) as an "Internal error emitted on the WebSocket server" stack
  // before listen's own rejection said it.
  const wsServer = new WebSocketServer({ noServer: true, path: "/graphql", maxPayload: byteLimit(limits.bodyLimit) });
  httpServer.on("upgrade", (req, socket, head) => wsServer.handleUpgrade(req, socket, head, (ws) => wsServer.emit("connection", ws, req)));
  const keyOperations = new KeyOperations();

  // Each operation's answer budget: what its heavy fields took from the process's pool is given
  // back when the operation completes, or when its socket closes. Found by the operation's
  // subscribe payload (graphql-ws hands the same object to context and onComplete), not by its
  // id: a client may complete an id and reuse it while the first operation still runs.
  const operationBudgets = new WeakMap<object, AnswerBudget>();
  const socketBudgets = new WeakMap<object, Set<AnswerBudget>>();
  const budgetsOf = (socket: object) => socketBudgets.get(socket) ?? socketBudgets.set(socket, new Set()).get(socket)!;

  const wsCleanup = useServer<Record<string, unknown>, { api?: ApiContext }>(
    {
      schema,
      onConnect: async (ctx) => {
        try {
          const verify = () => authenticate(deps.apiKeys, bearerOf(ctx.connectionParams));
          ctx.extra.api = newContext(await verify());
          keyOperations.track(ctx.extra.api.principal.keyId, ctx, ctx.extra.socket);
          closeSocketWhenKeyRefused(ctx.extra.socket, verify, parts.keyRecheckMs);
          return true;
        } catch (error) {
          // The close names the code an HTTP answer carries in extensions.code: 4403 for a key
          // refused, 4500 when keys cannot be checked (the store's error logged, never sent).
          if (error instanceof ApiError) ctx.extra.socket.close(4403, `UNAUTHENTICATED: ${error.message}`.slice(0, 120));
          else {
            log("graphql-ws: checking the API key failed", error);
            ctx.extra.socket.close(4500, "INTERNAL_SERVER_ERROR: internal error");
          }
          return false;
        }
      },
      // A fresh context (and per-request memo) per operation: the socket's would keep every run
      // history read over it for as long as it stays open, answering later operations from it.
      context: (ctx, _id, payload) => {
        const api = newContext((ctx.extra.api as ApiContext).principal);
        operationBudgets.set(payload, api.answerBudget);
        budgetsOf(ctx.extra.socket).add(api.answerBudget);
        return api;
      },
      onComplete: (ctx, _id, payload) => {
        const budget = operationBudgets.get(payload);
        if (!budget) return;
        budget.release();
        budgetsOf(ctx.extra.socket).delete(budget);
      },
      onClose: (ctx) => {
        for (const budget of budgetsOf(ctx.extra.socket)) budget.release();
        socketBudgets.delete(ctx.extra.socket);
      },
      validate: (s, document) => validate(s, document, [...specifiedRules, ...rules]),
      onSubscribe: async (ctx, _id, payload) => {
        // This operation is already among the socket's subscriptions.
        if (Object.keys(ctx.subscriptions).length > limits.maxSocketOperations) {
          return [new GraphQLError(`at most ${limits.maxSocketOperations} operations may be going at once on one socket; complete one first`, { extensions: { code: "VALIDATION" } })];
        }
        if (keyOperations.count((ctx.extra.api as ApiContext).principal.keyId) > limits.maxKeyOperations) {
          return [new GraphQLError(`at most ${limits.maxKeyOperations} operations may be going at once for one API key, over all its sockets (maxKeyOperations); complete one first`, { extensions: { code: "VALIDATION" } })];
        }
        // The key again for every operation (answered from the key cache), so one revoked while
        // the socket stays open stops working as it does over HTTP.
        await parts.checkRebuilds();
        try {
          ctx.extra.api = newContext(await authenticate(deps.apiKeys, bearerOf(ctx.connectionParams)));
        } catch (error) {
          if (error instanceof ApiError) return [new GraphQLError(error.message, { extensions: { code: "UNAUTHENTICATED" } })];
          const unavailable = classify(error);
          if (unavailable && loggedDatabaseUnavailable(databaseLines, log, "graphql-ws: checking the API key failed", error)) {
            return [new GraphQLError(unavailable.message, { extensions: { code: unavailable.code } })];
          }
          log("graphql-ws: checking the API key failed", error);
          return [new GraphQLError("internal error", { extensions: { code: "INTERNAL_SERVER_ERROR" } })];
        }
        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: limits.maxTokens });
        } catch (error) {
          // As an error message for this operation: thrown, graphql-ws would close the whole socket (4500).
          if (error instanceof GraphQLError) return [error];
          // A literal nested thousands deep (still under maxTokens) overflows the parser's stack.
          if (error instanceof RangeError) return [new GraphQLError("Syntax Error: the document is nested too deeply to parse", { extensions: { code: "GRAPHQL_PARSE_FAILED" } })];
          throw error;
        }
        const deep = tooDeep(payload.variables, MAX_JSON_DEPTH, "variables");
        if (deep !== null) return [new GraphQLError(depthMessage(deep), { extensions: { code: "VALIDATION", field: deep } })];
        const problem = inputProblem(document, payload.variables) ?? costProblem(document, payload.variables);
        return problem ? [problem] : undefined;
      },
      // Errors go out as over HTTP: a code (and field) in extensions, an internal error's message
      // withheld (it may be a database's, naming hosts or users) and its cause logged. `error`
      // messages and `next` results. A client that went away is not our error: nothing is logged.
      onError: (ctx, _id, _payload, errors) =>
        errors.map(tooLargeAsPayloadError).map((e) => (peerWentAway(ctx.extra.socket, e) ? formatError(e.toJSON(), e) : wsFormatError(e.toJSON(), e))),
      // An answer too large to write is that operation's error, not the socket's (wsTooLarge.ts).
      onOperation: (_ctx, _id, _payload, _args, result) => answerAsStream(result),
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors?.length ? { ...result, errors: result.errors.map((e) => wsFormatError(e.toJSON(), e)) } : undefined,
    },
    wsServer,
  );
  logOversizedMessagesQuietly(wsServer, log, limits.bodyLimit);
  return { wsServer, dispose: () => wsCleanup.dispose() };
}
