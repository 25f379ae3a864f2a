// node-postgres pools and LISTEN connections that survive a database restart or a terminated
// session. pg emits `error` on a pool when one of its idle clients dies, and on a client that dies
// while nobody is querying it; an `error` event with no listener is thrown by Node and ends the
// process. Every pool and LISTEN connection the apps open goes through here.
import type pg from "pg";
import { loadPg } from "../lazy/index.js";

/**
 * Lets the pool replace an idle client that the server dropped instead of crashing the process.
 * Nothing is lost: the next query on the pool opens a new connection, and a query that fails
 * because the database is really down rejects on its own.
 */
export function keepPoolAlive<P extends pg.Pool>(pool: P): P {
  pool.on("error", () => undefined);
  return pool;
}

/** A pg Pool (loaded lazily, see infra/lazy) with `keepPoolAlive` applied. */
export function createPgPool(config: pg.PoolConfig): pg.Pool {
  return keepPoolAlive(new (loadPg().Pool)(config));
}

export { PgListener, type PgListenerOptions } from "./pgListener.js";
export { isConnectionLoss } from "./connectionLoss.js";
