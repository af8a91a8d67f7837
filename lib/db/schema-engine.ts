import fs from "node:fs";
import path from "node:path";
import { createPglite } from "./pglite";
import { MIGRATIONS_DIR, readMigrations } from "./migrate";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import { createRequire } from "node:module";
import type { MigrationList, SchemaEngine as Engine } from "@prisma/schema-engine-wasm";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";

/**
 * Prisma's schema engine as WebAssembly, driven in-process against an in-memory PGlite shadow database, so that
 * migrations are diffed without the native engine the CLI would download (self-hosters may have only an npm mirror).
 */
export const ROOT = path.resolve(import.meta.dirname, "../..");
export const SCHEMA_PATH = path.join(ROOT, "prisma/schema.prisma");

let loaded: typeof Engine | undefined;

/** Node cannot import the package's `.wasm` entry, so the module is instantiated here with its JS glue. */
async function loadEngine(): Promise<typeof Engine> {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const wasmPath = path.join(
    path.dirname(require.resolve("@prisma/schema-engine-wasm")),
    "schema_engine_bg.wasm",
  );
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), {
    "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports,
  });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  loaded = bg.SchemaEngine;
  return loaded;
}

export const LOCKFILE = 'provider = "postgresql"\n';
const NO_FILTER = { externalTables: [], externalEnums: [] };

function migrationList(dir = MIGRATIONS_DIR): MigrationList {
  return {
    baseDir: dir,
    lockfile: { path: "migration_lock.toml", content: LOCKFILE },
    shadowDbInitScript: "",
    migrationDirectories: readMigrations(dir).map((m) => ({
      path: m.name,
      migrationFile: { path: "migration.sql", content: { tag: "ok", value: m.sql } },
    })),
  };
}

/** The SQL that takes a database with every migration applied to what schema.prisma describes ("" when none). */
export async function diffMigrationsToSchema(
  dir = MIGRATIONS_DIR,
  schemaPath = SCHEMA_PATH,
): Promise<string> {
  const shadow = await createPglite();
  const SchemaEngine = await loadEngine();
  // The engine expects the error-capturing, Result-returning form that Prisma's CLI wraps adapters in.
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPGlite(shadow));
  const engine = await SchemaEngine.new({ datamodels: undefined }, () => {}, adapter);
  try {
    const schema = { files: [{ path: schemaPath, content: fs.readFileSync(schemaPath, "utf8") }] };
    const result = await engine.diff({
      from: { tag: "migrations", ...migrationList(dir) },
      to: { tag: "schemaDatamodel", ...schema },
      script: true,
      exitCode: null,
      filters: NO_FILTER,
    });
    const sql = (result.stdout ?? "").trim();
    return sql === "" || /^-- This is an empty migration\.?$/.test(sql) ? "" : sql + "\n";
  } finally {
    engine.free();
    await shadow.close();
  }
}
