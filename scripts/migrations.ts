import fs from "node:fs";
import path from "node:path";
import { MIGRATIONS_DIR } from "../lib/db/migrate";
import { diffMigrationsToSchema, LOCKFILE } from "../lib/db/schema-engine";

// `create <name>`: writes the SQL that brings the migrations up to schema.prisma as a new migration.
// `check`: exits 1 when schema.prisma and the migrations have drifted apart (part of `npm test`).
const [cmd, name] = process.argv.slice(2);

function stamp(d = new Date()): string {
  return d.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

async function main(): Promise<number> {
  const sql = await diffMigrationsToSchema();
  if (cmd === "check") {
    if (sql === "") {
      console.log("migrations: in step with prisma/schema.prisma");
      return 0;
    }
    console.error(
      "migrations: prisma/schema.prisma has changes no migration holds. Run `npm run db:diff -- <name>`.",
    );
    console.error(sql);
    return 1;
  }
  if (cmd === "create") {
    if (!name || !/^[a-z0-9_]+$/.test(name)) {
      console.error("usage: npm run db:diff -- <name> (lowercase letters, digits and _)");
      return 2;
    }
    if (sql === "") {
      console.log("migrations: nothing to do, schema and migrations agree");
      return 0;
    }
    const dir = path.join(MIGRATIONS_DIR, `${stamp()}_${name}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "migration.sql"), sql);
    fs.writeFileSync(path.join(MIGRATIONS_DIR, "migration_lock.toml"), LOCKFILE);
    console.log(`migrations: wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
    return 0;
  }
  console.error("usage: tsx scripts/migrations.ts create <name> | check");
  return 2;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
