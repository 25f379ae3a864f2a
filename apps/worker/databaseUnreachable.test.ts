import { expect, it } from "vitest";
import { isDatabaseUnreachable } from "./databaseUnreachable.js";

it("a lost connection or a query with no answer is the database unreachable; a statement the server cancelled is not", () => {
  const noAnswer = Object.assign(new Error("PostgreSQL at db:5432/verdict did not answer within 62000 ms"), { code: "ETIMEDOUT", queryTimeoutMs: 60_000, queryTimeout: "did not answer" });
  const cancelled = Object.assign(new Error("canceling statement due to statement timeout: PostgreSQL at db:5432/verdict ran a statement longer than 60000 ms"), {
    code: "57014",
    queryTimeoutMs: 60_000,
    queryTimeout: "canceling statement due to statement timeout",
  });
  expect(isDatabaseUnreachable(noAnswer)).toBe(true);
  expect(isDatabaseUnreachable(Object.assign(new Error("wrapped"), { previous: noAnswer }))).toBe(true);
  expect(isDatabaseUnreachable(new Error("select 1 - Connection terminated unexpectedly"))).toBe(true);
  expect(isDatabaseUnreachable(cancelled)).toBe(false);
  expect(isDatabaseUnreachable(Object.assign(new Error("wrapped"), { previous: cancelled }))).toBe(false);
  expect(isDatabaseUnreachable(new Error("duplicate key"))).toBe(false);
});
