// graphql-ws writes each answer with JSON.stringify as it sends it. One past V8's string limit
// threw there (tooLargeJson.ts): for a query the throw left graphql-ws's message handler, which
// logged it as an internal error and closed the whole socket (4500), every other operation on it
// with it. Sent as a one-answer stream instead, the throw is graphql-ws's error for that
// operation: an `error` message, here PAYLOAD_TOO_LARGE, and the socket stays open.
import { GraphQLError } from "graphql";
import type { ExecutionResult, OperationResult } from "graphql-ws";
import { isStringTooLong, tooLargeAnswer } from "./tooLargeJson.js";

/** graphql-ws's onOperation: a query's or mutation's one answer as a stream of one. */
export async function answerAsStream(operation: OperationResult): Promise<AsyncIterable<ExecutionResult>> {
  const result = await operation;
  if (Symbol.asyncIterator in result) return result;
  return (async function* () {
    yield result;
  })();
}

/** An operation's error as graphql-ws reports it: one its answer could not be written for is PAYLOAD_TOO_LARGE. */
export function tooLargeAsPayloadError(error: GraphQLError): GraphQLError {
  if (!isStringTooLong(error.originalError)) return error;
  return new GraphQLError(error.message, { originalError: tooLargeAnswer() });
}
