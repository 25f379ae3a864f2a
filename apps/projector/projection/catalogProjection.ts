// catalogs: the latest import of each catalog key per tenant; a removal deletes the row.
import type { EventOf } from "@verdict/domain";
import { json, type Sql } from "../db/sql.js";
import type { Envelope } from "./batch.js";

export async function catalogImported(sql: Sql, event: EventOf<"CatalogImported">, envelope: Envelope): Promise<void> {
  const d = event.data;
  await sql.execute(
    `INSERT INTO catalogs (tenant, key, name, description, digest, canonical_yaml, source, metadata, products, scenario_count, imported_at)
     VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?)
     ON CONFLICT (tenant, key) DO UPDATE SET name = excluded.name, description = excluded.description, digest = excluded.digest,
       canonical_yaml = excluded.canonical_yaml, source = excluded.source, metadata = excluded.metadata, products = excluded.products,
       scenario_count = excluded.scenario_count, imported_at = excluded.imported_at`,
    [d.tenant, d.key, d.name, d.description ?? null, d.digest, d.canonical_yaml, json(d.source), json(d.metadata), json(d.products), d.scenario_count, envelope.at],
  );
}

export async function catalogRemoved(sql: Sql, event: EventOf<"CatalogRemoved">): Promise<void> {
  await sql.execute("DELETE FROM catalogs WHERE tenant = ? AND key = ?", [event.data.tenant, event.data.key]);
}
