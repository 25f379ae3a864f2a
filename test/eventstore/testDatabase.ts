// One throw-away PostgreSQL database per test file (or benchmark run): created on the local
// server, dropped with FORCE afterwards so open connections do not block the drop.
import { randomBytes } from "node:crypto";
import pg from "pg";

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

const SERVER_URL = process.env.VERDICT_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export async function createEventStoreTestDatabase(prefix = "verdict_test"): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await onServer(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
