// The one thing projections and queries need from MikroORM: run SQL (knex `?` placeholders) on
// the current entity manager, inside its transaction when it has one.
import type { EntityManager } from "@mikro-orm/postgresql";

export interface Sql {
  execute<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export function sqlOf(em: EntityManager): Sql {
  return { execute: async <T>(query: string, params: unknown[] = []) => (await em.execute(query, params)) as T[] };
}

/** JSON parameters travel as text and are cast in SQL (`?::jsonb`). */
export function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}
