// The read database's driver (knex under MikroORM) says a lost connection in one line naming the
// process and the database, not a bare "Connection Error: Connection ended unexpectedly".
import { afterEach, describe, expect, it, vi } from "vitest";
import { createServer, type AddressInfo, type Socket } from "node:net";
import pg from "pg";
import { createReadOrm, knexLog } from "./readOrm.js";
import { testAdminUrl } from "../services/testDatabase.js";
import { DEFAULT_PG_SETTINGS, MissingDatabaseError, whereOf } from "../pg/index.js";
import { missingDatabase } from "../services/missingDatabase.js";

describe("the read database's driver warnings", () => {
  afterEach(() => vi.restoreAllMocks());

  it("name the process part and the database, never its password, and repeat at most every 30 s", () => {
    const lines: string[] = [];
    const log = knexLog("api", "postgres://verdict:s3cret@db.internal:5432/verdict", (line) => lines.push(line));
    for (let i = 0; i < 5; i++) log.warn("Connection Error: Connection ended unexpectedly");
    log.warn("something else");
    expect(lines).toEqual([
      "[api] read database db.internal:5432/verdict: connection lost (Connection ended unexpectedly); the pool opens a new one for the next query",
      "[api] read database db.internal:5432/verdict: something else",
    ]);
  });

  it("reach the process's log when the server ends a pooled connection", async () => {
    const printed = [vi.spyOn(console, "log"), vi.spyOn(console, "warn")].map((spy) => spy.mockImplementation(() => undefined));
    const lines: string[] = [];
    const url = testAdminUrl();
    const orm = await createReadOrm({ url, poolSize: 1 }, { part: "projector", warn: (line) => lines.push(line) });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const em = orm.em.fork();
      const [{ pid }] = await em.execute<{ pid: number }[]>("SELECT pg_backend_pid() AS pid");
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await orm.em.fork().execute("SELECT 1 AS one")).toEqual([{ one: 1 }]);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^\\[projector\\] read database ${whereOf(url).replace(/\./g, "\\.")}: connection lost \\(.+\\); the pool opens a new one for the next query$`));
      for (const spy of printed) expect(spy).not.toHaveBeenCalled();
    } finally {
      await admin.end();
      await orm.close();
    }
  });
});

describe("a read database that does not exist", () => {
  it("is refused, naming the variable, the database and createdb, and never created", async () => {
    const missing = missingDatabase();
    try {
      const refused = createReadOrm({ url: missing.url, poolSize: 1 }, { variable: "DATABASE_URL" });
      await expect(refused).rejects.toThrow(MissingDatabaseError);
      await expect(refused).rejects.toThrow(
        `DATABASE_URL: database "${missing.name}" does not exist (PostgreSQL at ${whereOf(missing.url)}). Create it (createdb ${missing.name}), or set DATABASE_URL to a database that exists`,
      );
      await expect(createReadOrm({ url: missing.url, poolSize: 1 })).rejects.toMatchObject({ code: "3D000", message: expect.stringMatching(/^VERDICT_READ_DATABASE_URL: /) });
      expect(await missing.exists()).toBe(false);
    } finally {
      await missing.dropIfCreated();
    }
  });
});

describe("a read database that does not answer", () => {
  it("is refused after one connect timeout, not two (init's own connect tried, and only logged, first)", async () => {
    // A server that takes connections and never answers: a black hole.
    const sockets: Socket[] = [];
    const server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const settings = { ...DEFAULT_PG_SETTINGS, connectTimeoutMs: 300 };
      await expect(createReadOrm({ url: `postgres://u:S3cret@127.0.0.1:${port}/verdict`, poolSize: 1 }, { settings })).rejects.toThrow();
      expect(sockets).toHaveLength(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
