import { describe, expect, it } from "vitest";
import { SettingError } from "../settings/index.js";
import { checkDatabaseUrl } from "./databaseUrl.js";

const SECRET = "s3cr";

function refusal(url: string): string | null {
  try {
    checkDatabaseUrl("DATABASE_URL", url);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(SettingError);
    expect((error as Error).message).not.toContain(SECRET);
    return (error as Error).message;
  }
}

describe("checkDatabaseUrl", () => {
  it("takes what the driver reads as meant, an unescaped '@' in the password included (the last '@' ends it)", () => {
    for (const url of [
      "postgres://postgres@127.0.0.1:5432/verdict",
      `postgres://user:${SECRET}%2Fx@db:5432/verdict`,
      `postgres://user:${SECRET}@x@db/verdict`,
      "postgresql://db/verdict?host=/var/run/postgresql&application_name=a@b",
      "/var/run/postgresql verdict",
      "",
      "   ",
    ]) {
      expect(refusal(url), url).toBeNull();
    }
  });

  it("refuses what is neither a URL nor a socket directory, which pg read as a database on a host named 'base'", () => {
    for (const value of ["notaurl", "host=127.0.0.1 dbname=verdict", "localhost:5432/verdict"]) {
      expect(refusal(value), value).toBe(
        'DATABASE_URL is not a connection URL: postgres://user:password@host:port/database (or a socket directory and a database: "/var/run/postgresql verdict") (value not shown)',
      );
    }
  });

  it("refuses another database's scheme, which connected to PostgreSQL and failed there as a missing role (exit 1)", () => {
    for (const [url, scheme] of [[`mysql://u:${SECRET}@127.0.0.1:5432/db`, "mysql"], [`HTTP://u:${SECRET}@db/verdict`, "http"], [`postgres+ssl://u:${SECRET}@db/verdict`, "postgres+ssl"]]) {
      expect(refusal(url), url).toBe(`DATABASE_URL is a ${scheme}:// URL: the database must be PostgreSQL, postgres://user:password@host:port/database (or postgresql://) (value not shown)`);
    }
    expect(refusal("PostgreSQL://db/verdict")).toBeNull();
  });

  it("refuses a URL that does not parse, naming the variable and the form", () => {
    expect(refusal(`postgres://user:${SECRET}/x@db/verdict`)).toBe(
      "DATABASE_URL is not a valid URL: postgres://user:password@host:port/database, with special characters in the password percent-encoded (value not shown)",
    );
  });

  it("refuses a URL that parses with an '@' after the host, where the driver would take the user for the host", () => {
    for (const url of [`postgres://user:1234/${SECRET}@db/verdict`, `postgres://user:12?${SECRET}@db/verdict`, `postgres://user:12#${SECRET}@db/verdict`, `postgres://${SECRET}/x@db/verdict`]) {
      expect(refusal(url), url).toMatch(/^DATABASE_URL has an "@" after the host: .* \(value not shown\)$/);
    }
  });
});
