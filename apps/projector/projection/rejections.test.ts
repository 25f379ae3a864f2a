import { describe, expect, it } from "vitest";
import { isRefusal } from "./rejections.js";

const failure = (code: unknown) => Object.assign(new Error("database said no"), { code });

describe("isRefusal", () => {
  it("is a refusal for data exceptions, constraints and size limits: retrying cannot fix them", () => {
    for (const code of ["22021", "22P02", "22003", "23505", "23502", "54000"]) expect(isRefusal(failure(code))).toBe(true);
  });

  it("is not for a database that is failing (connection, shutdown, lock, serialization) nor for errors without a SQLSTATE", () => {
    for (const code of ["08006", "57P01", "40001", "55P03", "53300", undefined, "ECONNRESET", 22021]) expect(isRefusal(failure(code))).toBe(false);
    expect(isRefusal(new Error("connection terminated unexpectedly"))).toBe(false);
    expect(isRefusal(null)).toBe(false);
  });
});
