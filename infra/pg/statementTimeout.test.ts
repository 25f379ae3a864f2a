// A 57014 is the deadline this client set when the statement ran at least that long, whatever
// language the server speaks; a cancel before it (pg_cancel_backend) is not, in any language.
// Before, only the English "statement timeout" counted: on a German cluster every deadline
// became an internal error.
import { expect, it } from "vitest";
import { isStatementTimeout } from "./statementTimeout.js";

function canceled(message: string): Error {
  return Object.assign(new Error(message), { code: "57014" });
}

const GERMAN_TIMEOUT = canceled("storniere Anfrage wegen Zeitüberschreitung der Anfrage");
const GERMAN_USER_CANCEL = canceled("storniere Anfrage wegen Benutzeraufforderung");

it("a 57014 after the deadline is the server's timeout, in German as in English", () => {
  expect(isStatementTimeout(GERMAN_TIMEOUT, { serverTimeoutMs: 300, elapsedMs: 301.5 })).toBe(true);
  expect(isStatementTimeout(canceled("canceling statement due to statement timeout"), { serverTimeoutMs: 300, elapsedMs: 300 })).toBe(true);
});

it("a 57014 before the deadline is a cancel by someone else (pg_cancel_backend), in German as in English", () => {
  expect(isStatementTimeout(GERMAN_USER_CANCEL, { serverTimeoutMs: 300, elapsedMs: 40 })).toBe(false);
  expect(isStatementTimeout(canceled("canceling statement due to user request"), { serverTimeoutMs: 300, elapsedMs: 299.9 })).toBe(false);
});

it("with no statement_timeout on the server (refused, or lifted) no 57014 is a timeout", () => {
  expect(isStatementTimeout(GERMAN_TIMEOUT, { serverTimeoutMs: null, elapsedMs: 10_000 })).toBe(false);
});

it("another error is not, however long it ran", () => {
  expect(isStatementTimeout(Object.assign(new Error("Zeitüberschreitung"), { code: "55P03" }), { serverTimeoutMs: 300, elapsedMs: 10_000 })).toBe(false);
  expect(isStatementTimeout(null, { serverTimeoutMs: 300, elapsedMs: 10_000 })).toBe(false);
});
