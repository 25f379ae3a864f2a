// A JSON document too large to be one string. V8 caps a string at ~512 MB (2^29 - 24 UTF-16
// units): JSON.stringify of a bigger value throws `RangeError: Invalid string length`, which
// every path answered as an internal error (a 2,000 x 5 run with ~62 KB of answer and tool
// output a pair: report.json was a 500, `report { json }` INTERNAL_SERVER_ERROR, `verdict report
// --format json` a RangeError). The caller can do something about it (page, or pick another
// format), so it is PAYLOAD_TOO_LARGE naming what to do instead.
import { ApiError } from "./errors.js";

/** What a run's report over the limit is read as instead, over the API. */
export const PAGE_INSTEAD = "page run { results(first:, after:) } or export HTML/Markdown (report, report.md)";

/** Whether `error` is V8 refusing to build a string that long. */
export function isStringTooLong(error: unknown): boolean {
  return error instanceof RangeError && error.message === "Invalid string length";
}

/** The refusal: `what` is too large for one JSON document, and what to do instead. */
function tooLargeForJson(what: string, instead: string): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", `${what} is too large to send as one JSON document (over 512 MB); ${instead}`);
}

/** JSON.stringify(value, null, space), refused as PAYLOAD_TOO_LARGE when the text would be over V8's limit. */
export function jsonOrTooLarge(value: unknown, what: string, instead: string, space?: number): string {
  try {
    return JSON.stringify(value, null, space);
  } catch (error) {
    if (isStringTooLong(error)) throw tooLargeForJson(what, instead);
    throw error;
  }
}

/** What a GraphQL answer over the limit is read as instead. */
const GRAPHQL_INSTEAD = `ask for less at once: ${PAGE_INSTEAD}; runAudit's events come one at a time over the runEvents subscription`;

/** The refusal of a whole GraphQL answer over the limit. */
export function tooLargeAnswer(): ApiError {
  return tooLargeForJson("the answer", GRAPHQL_INSTEAD);
}

/**
 * Apollo's stringifyResult, answering PAYLOAD_TOO_LARGE when the whole answer is over the limit.
 * Apollo writes the answer after every resolver has run, so the error belongs to no one field;
 * `data` is dropped (what was resolved cannot be sent either way).
 */
export function refusingTooLarge<T>(stringify: (value: T) => string): (value: T) => string {
  return (value) => {
    try {
      return stringify(value);
    } catch (error) {
      if (!isStringTooLong(error)) throw error;
      const { message, apiCode } = tooLargeAnswer();
      return `${JSON.stringify({ errors: [{ message, extensions: { code: apiCode } }] })}\n`;
    }
  };
}
