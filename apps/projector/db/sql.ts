// The one thing projections and queries need from MikroORM: run SQL (knex `?` placeholders) on
// the current entity manager, inside its transaction when it has one. Queries go through knex
// with real bind parameters: MikroORM's own `execute` inlines every parameter into the SQL text,
// escaping it character by character, which for a batch's JSON payloads cost more than the
// database work.
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";

export interface Sql {
  execute<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Several statements without parameters (a migration file). */
  script(sql: string): Promise<void>;
}

export function sqlOf(em: EntityManager): Sql {
  return {
    async execute<T>(query: string, params: unknown[] = []): Promise<T[]> {
      const raw = em.getConnection().getKnex().raw(query, params as never[]);
      const transaction = em.getTransactionContext();
      if (transaction) raw.transacting(transaction);
      const result = (await raw) as { rows?: T[] } | T[];
      return Array.isArray(result) ? result : (result.rows ?? []);
    },
    async script(statements: string): Promise<void> {
      // No bindings: knex sends it as one simple query, which may hold several statements.
      const raw = em.getConnection().getKnex().raw(statements);
      const transaction = em.getTransactionContext();
      if (transaction) raw.transacting(transaction);
      await raw;
    },
  };
}

/** JSON parameters travel as text and are cast in SQL (`?::jsonb`). */
export function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/** Where the read models live, as projections and queries use it. */
export interface SqlDatabase {
  /** Statements outside any transaction. */
  sql(): Sql;
  /** `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
}

/** Through MikroORM (PostgreSQL; or an embedded PGlite over its socket). */
export function ormDatabase(orm: MikroORM): SqlDatabase {
  return {
    sql: () => sqlOf(orm.em.fork()),
    transaction: (work) => transactional(orm.em, (tx) => work(sqlOf(tx))),
  };
}

/**
 * `em.fork().transactional(work)`, failing with why the transaction failed. knex swallows the
 * failure of its own BEGIN (a connection lost, the query deadline on a database that does not
 * answer: infra/pg/queryDeadline.ts) and runs the work anyway, whose first statement then fails
 * "Transaction query already complete": that says nothing of the database. The real failure is
 * kept in the transaction's executionPromise; it is thrown instead, with knex's as its cause.
 */
export async function transactional<T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  let context: { executionPromise?: Promise<unknown> } | undefined;
  try {
    return await em.fork().transactional((tx) => {
      context = tx.getTransactionContext();
      return work(tx);
    });
  } catch (error) {
    const failed = await context?.executionPromise?.then(
      () => null,
      (reason: unknown) => reason,
    );
    if (failed instanceof Error && failed !== error && /Transaction query already complete/.test((error as Error)?.message ?? "")) {
      throw Object.assign(failed, { cause: failed.cause ?? error });
    }
    throw error;
  }
}
