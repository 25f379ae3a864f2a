// Test support: the URL of a database that does not exist (a name no test creates), whether one
// of that name exists, and its removal should a build under test have created it.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { testAdminUrl } from "./testDatabase.js";

export interface MissingDatabase {
  url: string;
  name: string;
  exists(): Promise<boolean>;
  /** Drops it if something created it (a build that still creates a missing read database). */
  dropIfCreated(): Promise<void>;
}

export function missingDatabase(prefix = "verdict_missing"): MissingDatabase {
  const name = `${prefix}_${process.pid}_${randomBytes(5).toString("hex")}`;
  const url = new URL(testAdminUrl());
  url.pathname = `/${name}`;
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: testAdminUrl() });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const exists = () => admin(async (client) => (await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1);
  return {
    url: url.toString(),
    name,
    exists,
    dropIfCreated: () => admin(async (client) => void (await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))),
  };
}
