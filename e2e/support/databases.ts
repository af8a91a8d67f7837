import pg from "pg";

/** On PostgreSQL each e2e server gets a database of its own beside the one DATABASE_URL names. */
export function serverDatabaseUrl(base: string | undefined, index: number): string | undefined {
  if (!base || !/^postgres(ql)?:\/\//.test(base)) return undefined;
  const u = new URL(base);
  u.pathname = `/${u.pathname.slice(1) || "relay"}_e2e${index}`;
  return u.toString();
}

async function onServer(url: string, sql: (name: string) => string): Promise<void> {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: u.toString() });
  await admin.connect();
  try {
    await admin.query(sql(name.replace(/"/g, '""')));
  } finally {
    await admin.end();
  }
}

export async function createDatabase(url: string): Promise<void> {
  await onServer(url, (name) => `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await onServer(url, (name) => `CREATE DATABASE "${name}"`);
}

export async function dropDatabase(url: string): Promise<void> {
  await onServer(url, (name) => `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch((err: unknown) =>
    console.warn(`[e2e] could not drop ${url}: ${String(err)}`),
  );
}
