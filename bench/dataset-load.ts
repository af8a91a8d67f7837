import type pg from "pg";

// The bulk load's switches around the statements of dataset-sql*.ts: indexes, checks and sequences.

export const BULK_TABLES = [
  "users",
  "events",
  "user_event_summaries",
  "user_tags",
  "user_prop_values",
  "user_prop_items",
  "conversations",
  "conversation_parts",
];

/** The secondary indexes of the bulk-loaded tables (not those behind constraints): dropped before, rebuilt after. */
export async function dropSecondaryIndexes(c: pg.Client): Promise<string[]> {
  const { rows } = await c.query<{ name: string; def: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
     FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
     WHERE t.relname = ANY($1::text[]) AND t.relnamespace = 'public'::regnamespace
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    [BULK_TABLES],
  );
  for (const r of rows) await c.query(`DROP INDEX ${r.name}`);
  return rows.map((r) => r.def);
}

/** Foreign-key checks are skipped while loading (the rows are consistent by construction); the lead trigger runs. */
export async function setChecks(c: pg.Client, on: boolean): Promise<void> {
  for (const t of BULK_TABLES) await c.query(`ALTER TABLE ${t} ${on ? "ENABLE" : "DISABLE"} TRIGGER ALL`);
  if (!on) await c.query("ALTER TABLE users ENABLE TRIGGER users_lead_flags");
}

export async function resetSequences(c: pg.Client): Promise<void> {
  const keyed = new Set(["user_event_summaries", "user_tags", "user_prop_values", "user_prop_items"]);
  for (const t of BULK_TABLES.filter((t) => !keyed.has(t))) {
    await c.query(
      `SELECT setval(pg_get_serial_sequence('${t}', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM ${t}), false)`,
    );
  }
}
