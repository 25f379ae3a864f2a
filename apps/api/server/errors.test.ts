import { describe, expect, it } from "vitest";
import { GraphQLError } from "graphql";
import { z } from "zod";
import { DomainError } from "@verdict/domain";
import { RepeatLimiter } from "@verdict/infra/logging";
import { ApiError, classify, formatError, loggingFormatError } from "./errors.js";

describe("classify", () => {
  it("maps domain codes to UPPER_CASE codes with the field", () => {
    expect(classify(DomainError.conflict("run r1 is complete", "run_id"))).toEqual({ code: "CONFLICT", message: "run r1 is complete", field: "run_id" });
    expect(classify(new DomainError("unavailable", "judge down"))).toMatchObject({ code: "UNAVAILABLE" });
    expect(classify(new ApiError("FORBIDDEN", "read key"))).toMatchObject({ code: "FORBIDDEN" });
  });

  it("names the field of a zod error", () => {
    const error = z.object({ threshold: z.number().max(1) }).safeParse({ threshold: 3 }).error;
    expect(classify(error)).toMatchObject({ code: "VALIDATION", field: "threshold" });
  });

  it("treats anything else as internal", () => {
    expect(classify(new Error("connect ECONNREFUSED postgres://user:secret@db"))).toBeNull();
  });
});

describe("formatError", () => {
  it("hides the message of an internal error", () => {
    const wrapped = new GraphQLError("boom", { originalError: new Error("password=secret") });
    const formatted = formatError({ message: "password=secret", extensions: { code: "INTERNAL_SERVER_ERROR" } }, wrapped);
    expect(formatted).toMatchObject({ message: "internal error", extensions: { code: "INTERNAL_SERVER_ERROR" } });
  });

  it("puts the domain code in extensions.code", () => {
    const wrapped = new GraphQLError("x", { originalError: DomainError.notFound("evaluation e1 not found", "evaluation_id") });
    expect(formatError({ message: "x" }, wrapped)).toMatchObject({ message: "evaluation e1 not found", extensions: { code: "NOT_FOUND", field: "evaluation_id" } });
  });
});

describe("loggingFormatError", () => {
  it("logs an internal error's cause once, with the field it was raised at, while the client gets `internal error`", () => {
    const logged: [string, unknown][] = [];
    const format = loggingFormatError((message, error) => logged.push([message, error]), "GraphQL");
    const cause = new TypeError("Cannot read properties of undefined (reading 'x')");
    const wrapped = new GraphQLError(cause.message, { originalError: cause, path: ["run", "report", "markdown"] });
    const formatted = format({ message: cause.message, path: ["run", "report", "markdown"], extensions: { code: "INTERNAL_SERVER_ERROR" } }, wrapped);
    expect(formatted).toMatchObject({ message: "internal error", extensions: { code: "INTERNAL_SERVER_ERROR" } });
    expect(logged).toEqual([['GraphQL operation failed at run.report.markdown (answered "internal error")', cause]]);
  });

  it("logs nothing for an error the client is shown: a domain code, an API error, GraphQL's own", () => {
    const logged: unknown[] = [];
    const format = loggingFormatError((message) => logged.push(message), "graphql-ws");
    format({ message: "x" }, new GraphQLError("x", { originalError: DomainError.notFound("run r1 not found", "id") }));
    format({ message: "read key" }, new ApiError("FORBIDDEN", "read key"));
    format({ message: "Syntax Error", extensions: { code: "GRAPHQL_PARSE_FAILED" } }, new GraphQLError("Syntax Error"));
    // An internal error the server already logged where it raised it (the ws key check) is not logged twice.
    format({ message: "internal error", extensions: { code: "INTERNAL_SERVER_ERROR" } }, new GraphQLError("internal error", { extensions: { code: "INTERNAL_SERVER_ERROR" } }));
    expect(logged).toEqual([]);
  });
});

describe("a database that does not answer by the query deadline, or cannot be reached", () => {
  const words = "PostgreSQL at db.internal:5432/verdict did not answer within 62000 ms; the query was given up and its connection closed (VERDICT_PG_QUERY_TIMEOUT_MS=60000, with 2000 ms more for the server's own cancel to arrive)";
  // As knex leaves it: the SQL, with its parameters, in front of the deadline's words.
  const timedOut = () => Object.assign(new Error(`select * from runs where tenant = 'acme' - ${words}`), { code: "ETIMEDOUT", queryTimeoutMs: 60_000, queryTimeout: words });
  const tooSlow = () =>
    Object.assign(new Error("canceling statement due to statement timeout: PostgreSQL at db.internal:5432/verdict ran a statement longer than 60000 ms (VERDICT_PG_QUERY_TIMEOUT_MS)"), {
      code: "57014",
      queryTimeoutMs: 60_000,
      queryTimeout: "canceling statement due to statement timeout: PostgreSQL at db.internal:5432/verdict ran a statement longer than 60000 ms (VERDICT_PG_QUERY_TIMEOUT_MS)",
    });

  it("is UNAVAILABLE, without the database's address, saying a write may have been recorded", () => {
    const readBack = "try again later (a change this asked for may have been recorded: read it back before sending it again)";
    expect(classify(timedOut())).toEqual({ code: "UNAVAILABLE", message: `the database did not answer within 60000 ms; ${readBack}` });
    // The server cancelled it: the database is reachable, the query ran too long; sending it again will not help.
    expect(classify(tooSlow())).toEqual({ code: "UNAVAILABLE", message: "the query ran past the database's deadline of 60000 ms and was cancelled" });
    // Under a wrapper (MikroORM's DriverException keeps the driver's error as `previous`).
    expect(classify(Object.assign(new Error("wrapped"), { previous: timedOut() }))).toMatchObject({ code: "UNAVAILABLE" });
    expect(classify(Object.assign(new Error("select 1 - Connection terminated unexpectedly")))).toEqual({ code: "UNAVAILABLE", message: `the database cannot be reached; ${readBack}` });
    expect(classify(Object.assign(new Error("timeout expired: PostgreSQL at db.internal:5432/verdict did not answer within 10000 ms (VERDICT_PG_CONNECT_TIMEOUT_MS)"), { code: "ETIMEDOUT" }))).toMatchObject({ code: "UNAVAILABLE" });
    const formatted = formatError({ message: "x", path: ["runs"] }, new GraphQLError("x", { originalError: timedOut() }));
    expect(formatted).toMatchObject({ extensions: { code: "UNAVAILABLE" } });
    expect(JSON.stringify(formatted)).not.toContain("db.internal");
  });

  it("is logged in the deadline's words once, then at most every 30 s with the repeats counted", () => {
    let now = 0;
    const logged: unknown[] = [];
    const format = loggingFormatError((message, error) => logged.push(error === undefined ? message : [message, error]), "GraphQL", new RepeatLimiter({ now: () => now }));
    for (; now < 65_000; now += 1_000) format({ message: "x", path: ["runs"] }, new GraphQLError("x", { originalError: timedOut(), path: ["runs"] }));
    expect(logged).toEqual([
      `GraphQL operation failed at runs (answered UNAVAILABLE): ${words}`,
      `GraphQL operation failed at runs (answered UNAVAILABLE): ${words} (repeated 29 more times since it was last shown)`,
      `GraphQL operation failed at runs (answered UNAVAILABLE): ${words} (repeated 29 more times since it was last shown)`,
    ]);
  });

  it("logs a different failure within 30 s: failures are told apart by their code and words, not all one 'connection lost'", () => {
    const logged: string[] = [];
    const format = loggingFormatError((message) => logged.push(message), "GraphQL", new RepeatLimiter({ now: () => 0 }));
    const fail = (path: string, error: Error) => format({ message: "x", path: [path] }, new GraphQLError("x", { originalError: error, path: [path] }));
    fail("runs", Object.assign(new Error("select 1 - terminating connection due to administrator command"), { code: "57P01" }));
    fail("runs", Object.assign(new Error("select 2 - terminating connection due to administrator command"), { code: "57P01" }));
    fail("evaluations", new Error("select 3 - Connection terminated unexpectedly"));
    expect(logged).toEqual([
      "GraphQL operation failed at runs (answered UNAVAILABLE): terminating connection due to administrator command",
      "GraphQL operation failed at evaluations (answered UNAVAILABLE): Connection terminated unexpectedly",
    ]);
  });

  it("logs a statement the server cancelled at each field it happens at (at most every 30 s for each)", () => {
    const logged: string[] = [];
    const format = loggingFormatError((message) => logged.push(message), "GraphQL", new RepeatLimiter({ now: () => 0 }));
    for (const path of ["runs", "evaluations", "runs"]) format({ message: "x", path: [path] }, new GraphQLError("x", { originalError: tooSlow(), path: [path] }));
    expect(logged).toEqual([
      `GraphQL operation failed at runs (answered UNAVAILABLE): ${tooSlow().queryTimeout}`,
      `GraphQL operation failed at evaluations (answered UNAVAILABLE): ${tooSlow().queryTimeout}`,
    ]);
  });

  it("is not a protocol violation (08P01: our query's bug, such as a wrong parameter count): that is internal, its cause logged", () => {
    const bug = Object.assign(new Error("bind message supplies 1 parameters, but prepared statement \"\" requires 2"), { code: "08P01" });
    expect(classify(bug)).toBeNull();
    const internal: unknown[] = [];
    const formatted = loggingFormatError((message, error) => internal.push([message, error]), "GraphQL")({ message: "x", path: ["runs"] }, new GraphQLError("x", { originalError: bug, path: ["runs"] }));
    expect(formatted).toMatchObject({ message: "internal error", extensions: { code: "INTERNAL_SERVER_ERROR" } });
    expect(internal).toEqual([['GraphQL operation failed at runs (answered "internal error")', bug]]);
  });
});
