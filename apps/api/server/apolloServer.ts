// Apollo Server 5 for the API's GraphQL over HTTP: the query limits, answers held to the answer
// budget and cached for finished runs, a plan's refusal as the HTTP status, a subscription sent
// over HTTP refused, and the graphql-ws server disposed when Apollo drains.
import type { Server } from "node:http";
import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginDrainHttpServer } from "@apollo/server/plugin/drainHttpServer";
import { ApolloServerPluginCacheControlDisabled } from "@apollo/server/plugin/disabled";
import { ApolloServerPluginLandingPageLocalDefault } from "@apollo/server/plugin/landingPage/default";
import { GraphQLError } from "graphql";
import type { ApiContext } from "./context.js";
import { planStatusPlugin } from "./planRefusal.js";
import { inputProblem } from "./inputText.js";
import { refusingTooLarge } from "./tooLargeJson.js";
import type { GraphqlWsServer } from "./graphqlWsServer.js";
import type { ServingParts } from "./servingParts.js";

export function createApollo(parts: ServingParts, httpServer: Server, ws: GraphqlWsServer): ApolloServer<ApiContext> {
  const { limits, log, schema, caching, costProblem } = parts;
  return new ApolloServer<ApiContext>({
    schema,
    validationRules: parts.rules,
    parseOptions: { maxTokens: limits.maxTokens },
    formatError: parts.httpFormatError,
    includeStacktraceInErrorResponses: false,
    // Fixed rather than derived from NODE_ENV, so GraphQL answers the same whatever it is (the
    // process entry sets NODE_ENV=production for graphql-js's sake; graphql-ws then words an
    // unexpected server error's close reason "Internal server error" instead of its message).
    introspection: true,
    // Its cache is one for every tenant; requests that name a persisted query are refused before
    // they get here (persistedQueries.ts), and this keeps any that did from reaching a cache.
    persistedQueries: false,
    // An answer over V8's string limit is PAYLOAD_TOO_LARGE, not an internal error (tooLargeJson.ts).
    stringifyResult: refusingTooLarge(caching.stringifyResult),
    // The process that hosts the server owns shutdown order (API first, databases last).
    stopOnTerminationSignals: false,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      ApolloServerPluginLandingPageLocalDefault(),
      // No cache hints are used; its willResolveField hook wrapped every resolved field (~12% of a
      // 3,000-result query with the schema instrumentation it turns on).
      ApolloServerPluginCacheControlDisabled(),
      caching.plugin,
      planStatusPlugin<ApiContext>(),
      {
        async serverWillStart() {
          return {
            async drainServer() {
              await ws.dispose();
            },
          };
        },
      },
      {
        async requestDidStart() {
          return {
            async didResolveOperation({ request, document, operation }) {
              // Apollo Server executes a subscription sent over HTTP as a query, and its resolver,
              // given no event, throws (`internal error` to the client): refuse it here instead.
              if (operation?.operation === "subscription") {
                throw new GraphQLError(
                  "subscriptions are served over graphql-ws (a WebSocket) on this same path, /graphql; send queries and mutations over HTTP",
                  { extensions: { code: "VALIDATION", http: { status: 400 } } },
                );
              }
              const input = inputProblem(document, request.variables);
              if (input) throw input;
              const problem = costProblem(document, request.variables);
              if (problem) throw new GraphQLError(problem.message, { extensions: { code: "VALIDATION", http: { status: 400 } } });
            },
          };
        },
      },
      {
        async unexpectedErrorProcessingRequest({ error }) {
          log("GraphQL request failed", error);
        },
      },
    ],
  });
}
