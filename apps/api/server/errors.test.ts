import { describe, expect, it } from "vitest";
import { GraphQLError } from "graphql";
import { z } from "zod";
import { DomainError } from "@verdict/domain";
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
