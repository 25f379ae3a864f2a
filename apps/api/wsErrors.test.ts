// graphql-ws answers errors as GraphQL over HTTP does: a code (and the field) in extensions, an
// internal error's message withheld, and a query that does not parse is that operation's error
// rather than a reason to close the socket every other subscription of the client shares.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventStore } from "@verdict/domain";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { collect, rawWsSession, startPlatform, type Platform } from "./testing/harness.js";

const SECRET_FAILURE = "connect to postgres://verdict:s3cr3t-password@db.internal:5432/events failed";

/** The memory store, except that reading the stream of run `leaky` fails as a database might. */
function leakyStore(): EventStore {
  const store = createMemoryEventStore();
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name === "readStream") {
        return (streamId: string, options?: unknown) =>
          streamId === "run-leaky" ? Promise.reject(new Error(SECRET_FAILURE)) : target.readStream(streamId, options as never);
      }
      const value = Reflect.get(target, name, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

let p: Platform;
/** What the API logged, as one text per call: the message and the error's stack. */
const logged: string[] = [];
beforeAll(async () => {
  p = await startPlatform({
    store: leakyStore(),
    log: (message, error) => logged.push(`${message}: ${error instanceof Error ? error.stack : String(error)}`),
  });
}, 60_000);
afterAll(async () => {
  await p?.close();
});

describe("the HTTP server's own errors", () => {
  it("one after start (a failed accept) is logged, not thrown, and the server still answers", async () => {
    logged.length = 0;
    const accept = Object.assign(new Error("accept EMFILE"), { code: "EMFILE", syscall: "accept" });
    // With no 'error' listener, emit throws it (in the process: an uncaught exception).
    expect(() => p.api.httpServer.emit("error", accept)).not.toThrow();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^HTTP server error: Error: accept EMFILE/);
    const answered = await p.gql(p.keys.acmeRead, "{ __typename }");
    expect(answered).toMatchObject({ status: 200, body: { data: { __typename: "Query" } } });
  });
});

describe("errors over graphql-ws", () => {
  it("carry the code and field a client branches on", async () => {
    const missing = collect(p.wsClient(p.keys.acmeRead), `subscription { runProgress(runId: "no-such-run") { status } }`, {});
    await expect(missing).rejects.toMatchObject({ errors: [{ message: "run no-such-run not found", extensions: { code: "NOT_FOUND", field: "runId" } }] });
    const readOnly = collect(p.wsClient(p.keys.acmeRead), `mutation { importCatalog(yaml: "catalog: x") { key } }`, {});
    await expect(readOnly).rejects.toMatchObject({ errors: [{ extensions: { code: "FORBIDDEN" } }] });
  });

  it("a refused key closes the socket with 4403 and a reason naming UNAUTHENTICATED, as HTTP's extensions.code does", async () => {
    const { closed, reason } = await rawWsSession(p.api.wsUrl, "vk_not_a_key", [], () => false);
    expect(closed).toBe(4403);
    expect(reason).toBe("UNAUTHENTICATED: the API key is unknown or revoked");
  });

  it("withhold an internal error's message, and log its cause once, without the caller's key", async () => {
    logged.length = 0;
    const failed = collect(p.wsClient(p.keys.acmeRead), `subscription { runEvents(runId: "leaky") { type } }`, {});
    const error = await failed.then(() => null, (e: { errors: unknown[] }) => e);
    expect(error?.errors).toEqual([expect.objectContaining({ message: "internal error", extensions: { code: "INTERNAL_SERVER_ERROR" } })]);
    expect(JSON.stringify(error?.errors)).not.toContain("s3cr3t");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^graphql-ws operation failed at runEvents \(answered "internal error"\): Error: connect to postgres:\/\/verdict:s3cr3t/);
    expect(logged[0]).toMatch(/\n\s+at /); // the stack
    expect(logged[0]).not.toContain(p.keys.acmeRead);
  });

  it("answer a query that does not parse as that operation's error and keep the socket open", async () => {
    const { frames, closed } = await rawWsSession(p.api.wsUrl, p.keys.acmeRead, [
      { id: "bad", type: "subscribe", payload: { query: "subscription {" } },
      { id: "good", type: "subscribe", payload: { query: "{ catalogs { totalCount } }" } },
    ], (seen) => seen.some((f) => f.id === "good" && f.type === "complete"));
    expect(closed).toBeNull();
    expect(frames.find((f) => f.id === "bad")).toMatchObject({ type: "error", payload: [{ message: "Syntax Error: Expected Name, found <EOF>." }] });
    expect(frames.find((f) => f.id === "good")).toEqual({ id: "good", type: "next", payload: { data: { catalogs: { totalCount: 0 } } } });
  });
});

describe("errors over HTTP", () => {
  it("withhold an internal error's message, and log its cause once, with its stack, without the caller's key", async () => {
    logged.length = 0;
    const res = await p.gql(p.keys.acmeRead, `{ runAudit(id: "leaky") { runId } }`);
    expect(res.body.errors).toEqual([expect.objectContaining({ message: "internal error", path: ["runAudit"], extensions: { code: "INTERNAL_SERVER_ERROR" } })]);
    expect(JSON.stringify(res.body)).not.toContain("s3cr3t");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^GraphQL operation failed at runAudit \(answered "internal error"\): Error: connect to postgres:\/\/verdict:s3cr3t/);
    expect(logged[0]).toMatch(/\n\s+at /);
    expect(logged[0]).not.toContain(p.keys.acmeRead);
  });

  it("refuse a subscription with VALIDATION saying where subscriptions are served, logging nothing", async () => {
    logged.length = 0;
    const res = await p.gql(p.keys.acmeRead, `subscription { runProgress(runId: "no-such-run") { status } }`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{
        message: "subscriptions are served over graphql-ws (a WebSocket) on this same path, /graphql; send queries and mutations over HTTP",
        extensions: { code: "VALIDATION" },
      }],
    });
    expect(logged).toEqual([]);
  });
});

describe("documents too deep to parse", () => {
  // Under maxTokens, but deep enough that the parser's recursion overflows the stack.
  const deepLiteral = `{ catalog(key: ${"[".repeat(2500)}"k"${"]".repeat(2500)}) { key } }`;

  it("are that operation's syntax error over graphql-ws, the socket kept open", async () => {
    const { frames, closed } = await rawWsSession(p.api.wsUrl, p.keys.acmeRead, [
      { id: "deep", type: "subscribe", payload: { query: deepLiteral } },
      { id: "good", type: "subscribe", payload: { query: "{ catalogs { totalCount } }" } },
    ], (seen) => seen.some((f) => f.id === "good" && f.type === "complete"));
    expect(closed).toBeNull();
    expect(frames.find((f) => f.id === "deep")).toMatchObject({ type: "error", payload: [{ message: "Syntax Error: the document is nested too deeply to parse", extensions: { code: "GRAPHQL_PARSE_FAILED" } }] });
    expect(frames.find((f) => f.id === "good")).toEqual({ id: "good", type: "next", payload: { data: { catalogs: { totalCount: 0 } } } });
  });

  it("are refused over HTTP too", async () => {
    const res = await p.gql(p.keys.acmeRead, deepLiteral);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe("GRAPHQL_PARSE_FAILED");
  });
});

describe("introspection that multiplies its answer", () => {
  // Aliased `types` and `fields` through fragments: the answer grew as the fourth power of the aliases.
  const aliases = (n: number, field: string, inner: string) => Array.from({ length: n }, (_, i) => `${field}${i}: ${field} { ${inner} }`).join(" ");
  const fanOut = `{ __schema { ${aliases(20, "types", "...T")} } } fragment T on __Type { ${aliases(20, "fields", "name type { ...U }")} } fragment U on __Type { ${aliases(20, "fields", "name")} }`;

  it("is refused before it runs, over HTTP and graphql-ws, and the standard introspection query still answers", async () => {
    const res = await p.gql(p.keys.acmeRead, fanOut);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ message: "introspection takes no aliases (`types0: types`)", extensions: { code: "GRAPHQL_VALIDATION_FAILED" } });
    const { frames } = await rawWsSession(p.api.wsUrl, p.keys.acmeRead, [{ id: "fan", type: "subscribe", payload: { query: fanOut } }], (seen) => seen.some((f) => f.id === "fan"));
    expect(frames.find((f) => f.id === "fan")).toMatchObject({ type: "error", payload: expect.arrayContaining([expect.objectContaining({ extensions: expect.objectContaining({ code: "VALIDATION" }) })]) });
    const { getIntrospectionQuery } = await import("graphql");
    const standard = await p.gql(p.keys.acmeRead, getIntrospectionQuery());
    expect(standard.status).toBe(200);
    expect(standard.body.data.__schema.queryType.name).toBe("Query");
  });
});

describe("documents too long to parse safely", () => {
  // Each fragment spreads the next: graphql-js's validation follows the chain recursively.
  const chain = (n: number) =>
    `{ catalogs { edges { node { ...f0 } } } } ` + Array.from({ length: n }, (_, i) => `fragment f${i} on Catalog { key ${i + 1 < n ? `...f${i + 1}` : ""} }`).join(" ");

  it("are refused as a syntax error over HTTP rather than an internal error", async () => {
    const res = await p.gql(p.keys.acmeRead, chain(5000));
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^Syntax Error: Document contains more th(an|at) 10000 tokens/), extensions: { code: "GRAPHQL_PARSE_FAILED" } });
  });

  it("are refused as that operation's error over graphql-ws, the socket kept open", async () => {
    const { frames, closed } = await rawWsSession(p.api.wsUrl, p.keys.acmeRead, [
      { id: "long", type: "subscribe", payload: { query: chain(5000) } },
      { id: "good", type: "subscribe", payload: { query: "{ catalogs { totalCount } }" } },
    ], (seen) => seen.some((f) => f.id === "good" && f.type === "complete"));
    expect(closed).toBeNull();
    expect(frames.find((f) => f.id === "long")).toMatchObject({ type: "error", payload: [{ message: expect.stringContaining("10000 tokens") }] });
  });
});

describe("operations at once on one socket", () => {
  let q: Platform;
  beforeAll(async () => {
    q = await startPlatform({ limits: { maxSocketOperations: 3 } });
  }, 60_000);
  afterAll(async () => {
    await q?.close();
  });

  it("are bounded: one over the limit is refused, the ones going keep going", async () => {
    const created = await q.gql(q.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "Orders", scenarios: [{ key: "where", prompt: "Where is my order?" }], compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
    const started = await q.gql(q.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId } }`, { id: created.body.data.createEvaluation.evaluationId });
    const runId = started.body.data.startRun.runId;
    // An external run with nothing recorded stays RUNNING: its progress subscriptions stay open.
    const follow = (id: string) => ({ id, type: "subscribe", payload: { query: `subscription ($r: ID!) { runProgress(runId: $r) { status } }`, variables: { r: runId } } });
    const { frames, closed } = await rawWsSession(q.api.wsUrl, q.keys.acmeRead, [follow("1"), follow("2"), follow("3"), follow("4")], (seen) => seen.some((f) => f.id === "4") && ["1", "2", "3"].every((id) => seen.some((f) => f.id === id)));
    expect(closed).toBeNull();
    expect(frames.find((f) => f.id === "4")).toMatchObject({ type: "error", payload: [{ message: "at most 3 operations may be going at once on one socket; complete one first", extensions: { code: "VALIDATION" } }] });
    for (const id of ["1", "2", "3"]) expect(frames.find((f) => f.id === id)).toMatchObject({ type: "next", payload: { data: { runProgress: { status: "RUNNING" } } } });
  });
});
