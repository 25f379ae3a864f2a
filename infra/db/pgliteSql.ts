// SQL straight on an embedded PGlite, for the code that would otherwise reach it through
// pglite-socket, `pg` and knex: the same statements (knex `?` placeholders), the same values back
// (int8 as text, as `pg` gives it), without the wire protocol and the loopback socket. On one
// event loop shared with the worker the socket was the projector's bottleneck: every round trip
// waited for the loop to come round to the socket (twice), behind whatever else was queued.
// PGlite runs one statement or one transaction at a time (`query` and `transaction` share its
// transaction lock), so a transaction here is never interleaved with another caller's statements.
import { types, type PGlite, type Transaction } from "@electric-sql/pglite";

export interface PgliteSql {
  execute<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Several statements without parameters (a migration file). */
  script(sql: string): Promise<void>;
}

export interface PgliteSqlDatabase {
  /** Statements outside any transaction (each its own). */
  sql(): PgliteSql;
  /** `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (sql: PgliteSql) => Promise<T>): Promise<T>;
}

// What `pg` does with int8 (count(*), bigint columns): text, exact whatever the size.
const PG_PARSERS = { [types.INT8]: (value: string) => value };

/**
 * `?` placeholders (outside quotes) to `$n`; an array parameter becomes a list, as knex does.
 * `??` (knex identifiers) is not supported.
 */
export function numberedPlaceholders(sql: string, params: readonly unknown[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  let text = "";
  let next = 0;
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (quote) {
      if (c === quote) quote = null;
      text += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      text += c;
    } else if (c === "?") {
      if (sql[i + 1] === "?") throw new Error("pgliteSql: knex identifier placeholders (??) are not supported");
      if (next >= params.length) throw new Error(`pgliteSql: ${params.length} parameters for more placeholders in: ${sql.slice(0, 80)}`);
      const value = params[next++];
      if (Array.isArray(value)) {
        text += value.map((item) => `$${values.push(item)}`).join(", ");
      } else {
        text += `$${values.push(value)}`;
      }
    } else {
      text += c;
    }
  }
  if (next !== params.length) throw new Error(`pgliteSql: ${params.length} parameters for ${next} placeholders in: ${sql.slice(0, 80)}`);
  return { text, values };
}

function runnerOf(target: Pick<PGlite | Transaction, "query" | "exec">): PgliteSql {
  return {
    async execute<T>(sql: string, params: unknown[] = []): Promise<T[]> {
      const { text, values } = numberedPlaceholders(sql, params);
      // undefined is what knex sends as NULL too.
      const bound = values.map((v) => (v === undefined ? null : v));
      return (await target.query<T>(text, bound, { parsers: PG_PARSERS })).rows;
    },
    async script(statements: string): Promise<void> {
      await target.exec(statements);
    },
  };
}

export function pgliteSqlDatabase(db: PGlite): PgliteSqlDatabase {
  const outside = runnerOf(db);
  return {
    sql: () => outside,
    transaction: (work) => db.transaction((tx) => work(runnerOf(tx))),
  };
}
