import { describe, expect, it } from "vitest";
import { MissingDatabaseError } from "./missingDatabase.js";

describe("MissingDatabaseError", () => {
  it("names the variable, the database and createdb", () => {
    expect(new MissingDatabaseError("VERDICT_READ_DATABASE_URL", "postgres://bob:S3cret@db.internal:6432/verdict_read").message).toBe(
      'VERDICT_READ_DATABASE_URL: database "verdict_read" does not exist (PostgreSQL at db.internal:6432/verdict_read). Create it (createdb verdict_read), or set VERDICT_READ_DATABASE_URL to a database that exists',
    );
  });

  it("shows no name from a URL whose password's unencoded / made the rest of it the path", () => {
    const message = new MissingDatabaseError("DATABASE_URL", "postgres://postgres:5432/s3cr3t@127.0.0.1:5432/verdict").message;
    expect(message).not.toContain("s3cr3t");
    expect(message).toContain('database "(not shown)"');
  });
});
