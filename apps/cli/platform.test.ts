import { describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runCli } from "./cli.js";
import { bufferIo } from "./io.js";
import { cli, example } from "./testing.js";
import { describeMode, platformMode, reportsDirOf } from "./platform.js";
import { whereOf } from "./databaseConnect.js";

describe("platformMode", () => {
  it("is the embedded default under ./.verdict when nothing is set", () => {
    const mode = platformMode({});
    expect(mode).toEqual({ embedded: true, home: resolve(".verdict"), databaseUrl: null, readUrl: null, kafkaBrokers: [] });
    expect(describeMode(mode)).toBe(`embedded: PGlite under ${resolve(".verdict")}, in-memory job bus`);
    expect(platformMode({ VERDICT_HOME: "/tmp/elsewhere" }).home).toBe("/tmp/elsewhere");
  });

  it("uses PostgreSQL for events and read models, and Kafka when brokers are named", () => {
    const mode = platformMode({ DATABASE_URL: "postgres://db/verdict", KAFKA_BROKERS: " 127.0.0.1:9092, ,h2:9092" });
    expect(mode).toMatchObject({ embedded: false, databaseUrl: "postgres://db/verdict", readUrl: "postgres://db/verdict", kafkaBrokers: ["127.0.0.1:9092", "h2:9092"] });
    expect(describeMode(mode)).toBe("PostgreSQL (DATABASE_URL), Kafka at 127.0.0.1:9092,h2:9092");
    const split = platformMode({ DATABASE_URL: "postgres://db/events", VERDICT_READ_DATABASE_URL: "postgres://db/read" });
    expect(split).toMatchObject({ readUrl: "postgres://db/read", kafkaBrokers: [] });
    expect(describeMode(split)).toContain("in-memory job bus (set KAFKA_BROKERS for Kafka)");
  });

  it("saves start's reports in a folder per database, where run numbers start again", () => {
    expect(reportsDirOf(platformMode({ VERDICT_HOME: "/h" }))).toBe("/h/reports");
    expect(reportsDirOf(platformMode({ VERDICT_HOME: "/h", DATABASE_URL: "postgres://bob:S3cret@db.internal:6543/verdict" }))).toBe("/h/reports/db.internal-6543-verdict");
    expect(reportsDirOf(platformMode({ VERDICT_HOME: "/h", DATABASE_URL: "postgres://127.0.0.1/my%20db" }))).toBe("/h/reports/127.0.0.1-5432-my_db");
  });

  it("names a database URL that does not parse, without echoing its password", async () => {
    const message = (env: NodeJS.ProcessEnv) => {
      try {
        platformMode(env);
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    };
    const bad = "postgres://bob:S3cret@db:port/verdict";
    expect(message({ DATABASE_URL: bad })).toMatch(/^DATABASE_URL is not a valid URL: .*\(value not shown\)$/);
    expect(message({ DATABASE_URL: "postgres://db/verdict", VERDICT_READ_DATABASE_URL: bad })).toMatch(/^VERDICT_READ_DATABASE_URL is not a valid URL/);
    expect(message({ DATABASE_URL: bad })).not.toContain("S3cret");
    const io = bufferIo();
    expect(await runCli(["report", "run-1"], io, { DATABASE_URL: bad })).toBe(2);
    expect(io.stderr.join("")).toMatch(/^DATABASE_URL is not a valid URL/);
    // Not a URL at all: pg took it for a database on a host named "base", an unknown host, exit 4.
    const plain = bufferIo();
    expect(await runCli(["report", "run-1"], plain, { DATABASE_URL: "notaurl" })).toBe(2);
    expect(plain.stderr.join("")).toMatch(/^DATABASE_URL is not a connection URL: postgres:\/\/user:password@host:port\/database/);
    // It parsed, and pg looked up the user name "bob" as the host: a DNS error, exit 4.
    const stray = "postgres://bob:5432/S3cret@db/verdict";
    expect(message({ DATABASE_URL: stray })).toMatch(/^DATABASE_URL has an "@" after the host: .*\(value not shown\)$/);
    expect(message({ DATABASE_URL: "postgres://db/verdict", VERDICT_READ_DATABASE_URL: stray })).toMatch(/^VERDICT_READ_DATABASE_URL has an "@" after the host/);
    expect(message({ DATABASE_URL: stray })).not.toContain("S3cret");
  });

  it("names VERDICT_HOME when it is a file or has a file in its path (it was mkdir's EEXIST, exit 1)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-home-"));
    try {
      const file = join(dir, "home");
      await writeFile(file, "not a directory");
      const advice = "set VERDICT_HOME to a directory (one that does not exist yet is created)";
      expect(await cli(["catalogs", "import", example("catalog.yaml")], { VERDICT_HOME: file })).toEqual({
        code: 2, stdout: "", stderr: `VERDICT_HOME ${file} is a file, not a directory; ${advice}`,
      });
      expect(await cli(["keys", "list"], { VERDICT_HOME: join(file, "sub") })).toEqual({
        code: 2, stdout: "", stderr: `VERDICT_HOME ${join(file, "sub")}: a part of that path is a file, not a directory; ${advice}`,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("names DATABASE_URL (or the read database's variable) when PostgreSQL cannot be reached, without its password", async () => {
    const refused = "postgres://bob:S3cret@127.0.0.1:1/verdict";
    const advice = "(ECONNREFUSED: connection refused). Start the server, or set DATABASE_URL to one that is reachable";
    const events = await cli(["catalogs", "export", "support"], { DATABASE_URL: refused });
    // 4, not 1 (a run that failed): a script can tell "try again later" from "the agent failed".
    expect(events).toMatchObject({ code: 4, stdout: "", stderr: expect.stringContaining(`DATABASE_URL: cannot use PostgreSQL at 127.0.0.1:1/verdict ${advice}`) });
    const keys = await cli(["keys", "list"], { DATABASE_URL: "postgres://db/verdict", VERDICT_READ_DATABASE_URL: refused });
    expect(keys).toMatchObject({ code: 4, stderr: expect.stringMatching(/^VERDICT_READ_DATABASE_URL: cannot use PostgreSQL at 127\.0\.0\.1:1\/verdict \(ECONNREFUSED/) });
    // Its own variable to unset: unsetting DATABASE_URL (the advice it got) would leave the read URL without its log.
    expect(keys.stderr).toContain("or unset VERDICT_READ_DATABASE_URL to keep the read models beside the log.");
    expect(events.stderr).toContain("or unset DATABASE_URL for the embedded default.");
    for (const result of [events, keys]) expect(result.stderr).not.toContain("S3cret");
    // A server that answers without the database: create it, rather than start a running server.
    const missing = await cli(["keys", "list"], { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/verdict_no_such_database_here" });
    expect(missing).toMatchObject({ code: 4, stderr: expect.stringContaining("(3D000: no such database). Create the database (createdb), or set DATABASE_URL to one that is reachable") });
    // A server that refuses the login: no server to start, the user (or password) is wrong.
    const login = await cli(["keys", "list"], { DATABASE_URL: "postgres://verdict_no_such_user_here:S3cret@127.0.0.1:5432/verdict" });
    expect(login).toMatchObject({ code: 4, stderr: expect.stringMatching(/\((28P01: the password was refused|28000: the login was refused)\)\. Check the user/) });
    expect(login.stderr).not.toContain("Start the server");
    expect(login.stderr).not.toContain("S3cret");
  });

  it("shows nothing of a DATABASE_URL whose password holds an unencoded / ? or # (the parser would read it as host, port and path)", () => {
    for (const url of ["postgres://app:2024/Winter-SECRETX6@127.0.0.1:5432/prod", "postgres://app:77?SECRETX6@127.0.0.1/prod", "postgres://app:1#SECRETX6@h/prod", "postgres://127.0.0.1:1/x@SECRETX6"]) {
      expect(whereOf(url)).toBe("(a value that is not a URL)");
    }
    expect(whereOf("postgres://bob:S3cret@127.0.0.1:1/verdict")).toBe("127.0.0.1:1/verdict");
    expect(whereOf("postgres://bob:a%2Fb%40c@db.internal/verdict")).toBe("db.internal:5432/verdict");
    // The driver connects where the query says (it named localhost:5432 for this one).
    expect(whereOf("postgres:///verdict?host=127.0.0.1&port=1&password=S3cret")).toBe("127.0.0.1:1/verdict");
    expect(whereOf("postgres://db.internal/verdict?host=/var/run/postgresql")).toBe("/var/run/postgresql:5432/verdict");
  });

  it("refuses a KAFKA_BROKERS entry that is not host:port without echoing it (verdict start printed it, password and all)", async () => {
    const env = { VERDICT_HOME: "/tmp/unused", DATABASE_URL: "postgres://db/verdict", KAFKA_BROKERS: "user:CANARY-KAFKA-PW9@127.0.0.1:9092" };
    expect(() => platformMode(env)).toThrow(/^KAFKA_BROKERS entry 1 is not host:port: .*SASL is not supported \(value not shown\)$/);
    const result = await cli(["start"], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^KAFKA_BROKERS entry 1 is not host:port/);
    expect(result.stdout + result.stderr).not.toContain("CANARY");
  });

  it("refuses Kafka without PostgreSQL and says what to set", () => {
    expect(() => platformMode({ KAFKA_BROKERS: "127.0.0.1:9092" })).toThrow(/Set DATABASE_URL \(e\.g\. postgres:\/\/.*\), or unset KAFKA_BROKERS/);
  });
});
