// A run whose report is over V8's ~512 MB string limit (2,000 x 5 with ~62 KB of answer and
// tool output a pair): JSON.stringify throws `RangeError: Invalid string length`, answered as an
// internal error (a 500, INTERNAL_SERVER_ERROR). The caller is told it is PAYLOAD_TOO_LARGE and
// what to read instead. The failure is injected where the text is built (no 512 MB here),
// through a real server and a real HTTP client.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { finishedSampleRun, startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;
let evaluationId: string;
let runId: string;
const logged: string[] = [];

beforeAll(async () => {
  p = await startPlatform({ log: (message) => logged.push(message) });
  ({ evaluationId, runId } = await finishedSampleRun(p, ["gpt-5-mini", "claude-sonnet-5"]));
}, 60_000);

afterAll(() => p?.close());
afterEach(() => vi.restoreAllMocks());

/** JSON.stringify as V8 answers it for a value over its string limit, when `tooLong(value)`. */
function overTheLimit(tooLong: (value: any) => boolean): void {
  const stringify = JSON.stringify;
  vi.spyOn(JSON, "stringify").mockImplementation((value, ...rest) => {
    if (value && typeof value === "object" && tooLong(value)) throw new RangeError("Invalid string length");
    return stringify(value, ...(rest as [never]));
  });
}

describe("an answer too large for one JSON document", () => {
  it("is a 413 PAYLOAD_TOO_LARGE from report.json, in the API's error shape, naming what to read instead", async () => {
    overTheLimit((value) => value.version === 1 && "report" in value);
    const res = await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${runId}/report.json`);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      code: "PAYLOAD_TOO_LARGE",
      error: "the run's report is too large to send as one JSON document (over 512 MB); page run { results(first:, after:) } or export HTML/Markdown (report, report.md)",
    });
    vi.restoreAllMocks();
    expect((await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${runId}/report.md`)).status).toBe(200);
  });

  it("is PAYLOAD_TOO_LARGE over GraphQL (report { json }, whole results, runAudit), not an internal error", async () => {
    const queries = [
      `query ($r: ID!) { run(id: $r) { report { json } } }`,
      `query ($r: ID!) { run(id: $r) { results { edges { node { answer toolCalls { name } } } } } }`,
      `query ($r: ID!) { runAudit(id: $r) { events { type } } }`,
    ];
    overTheLimit((value) => "data" in value && value.data !== null);
    for (const query of queries) {
      const { body } = await p.gql(p.keys.acmeRead, query, { r: runId });
      expect(body.data, query).toBeUndefined();
      expect(body.errors, query).toEqual([{
        message: "the answer is too large to send as one JSON document (over 512 MB); ask for less at once: page run { results(first:, after:) } or export HTML/Markdown (report, report.md); runAudit's events come one at a time over the runEvents subscription",
        extensions: { code: "PAYLOAD_TOO_LARGE" },
      }]);
    }
    expect(logged).toEqual([]);
  });
});
