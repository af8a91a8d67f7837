const KEY = Symbol.for("relay.process-wide");

/**
 * The process's one `name` registry, made by the first copy of a module that asks: a registry kept in module state
 * instead would be one per bundle (Next bundles modules into every route bundle as well as server.ts), and what
 * server.ts registers would be missing in the route handlers. Here, below every other folder, so that the database
 * layer can keep its registries without importing the server's runtime.
 */
export function processWide<T>(name: string, make: () => T): T {
  const g = globalThis as { [KEY]?: Map<string, unknown> };
  const shared = (g[KEY] ??= new Map());
  if (!shared.has(name)) shared.set(name, make());
  return shared.get(name) as T;
}

/**
 * Empties the registry's maps and sets (weak ones are keyed by objects that die with their server). For test
 * processes that host many servers one after another, each over a database of its own, where an ID remembered for
 * one server would name another row in the next.
 */
export function forgetProcessWide(): void {
  const shared = (globalThis as { [KEY]?: Map<string, unknown> })[KEY];
  for (const value of shared?.values() ?? []) {
    if (value instanceof Map || value instanceof Set) value.clear();
  }
}
