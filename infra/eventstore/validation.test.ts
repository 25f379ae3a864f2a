import { describe, expect, it } from "vitest";
import { EventStoreInputError, validateStreamId } from "./validation.js";

describe("stream id validation", () => {
  it.each(["catalog-acme.support", "result-r1.0", "run-01HZX_y", "evaluation-3f9a2c7e-1b2d-4c5e-8f90-123456789abc"])("accepts %s", (id) => {
    expect(() => validateStreamId(id)).not.toThrow();
  });

  it.each([
    ["", /non-empty/],
    ["a".repeat(201), /at most 200/],
    ["run/1", /letters, digits/],
    ["run 1", /letters, digits/],
    ["run-1';DROP", /letters, digits/],
    ["catalog-a..b", /'\.\.'/],
    [".hidden", /start with '\.'/],
    ["-flag", /start with '\.' or '-'/],
    ["run--1", /'--'/],
  ])("refuses %j naming the field and the rule", (id, rule) => {
    const error = (() => {
      try {
        validateStreamId(id);
      } catch (caught) {
        return caught;
      }
    })() as EventStoreInputError;
    expect(error).toBeInstanceOf(EventStoreInputError);
    expect(error.code).toBe("validation");
    expect(error.field).toBe("streamId");
    expect(error.message).toMatch(rule);
  });
});
