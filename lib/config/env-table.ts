import { envDocs, envSchema } from "./env-schema";

/** The README's configuration table, rendered from the schema (lib/config/env-table.test.ts keeps them equal). */
export function envTable(): string {
  const rows = Object.entries(envSchema.shape).map(([name, schema]) => {
    const doc = envDocs.get(schema);
    if (!doc) throw new Error(`${name} has no description in lib/config/env-schema.ts`);
    return `| \`${name}\` | ${doc.shown} | ${doc.accepts} | ${doc.description} |`;
  });
  return ["| Variable | Default | Accepted | Meaning |", "|---|---|---|---|", ...rows].join("\n");
}
