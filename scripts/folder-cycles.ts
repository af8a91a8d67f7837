// Folder-level dependency cycles: every lib/<name> folder is one node, and so are app, components, cli,
// scripts and bench (and each file at the root, e.g. server.ts). Prints each strongly connected component of more
// than one node with the folder edges inside it (and a few of the file imports behind each edge), then exits 1 if
// there is any. dependency-cruiser only checks cycles between files; a knot of folders can exist without one.
//
// Run from the repository root: `npx tsx scripts/folder-cycles.ts [--json] [--known FILE] [--test-support]`.
// --json prints the figures and cycles as JSON. --known FILE lists folder edges (`from -> to`, one a line, `#`
// comments) that are known to be in cycles: then only a cycle through another edge fails, and known edges no longer
// in any cycle are named so the list can shrink. Tests (*.test.ts, e2e/) are not part of the graph, nor, unless
// --test-support, the test support (lib/testing/, */testing.ts): it composes the whole server for the tests, and
// .dependency-cruiser.cjs keeps it out of the product's own imports.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { cruise } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

const FOLDERS = ["lib", "app", "components", "cli", "scripts", "bench"];
const ROOTS = [
  ...FOLDERS.filter((folder) => existsSync(folder)),
  ...readdirSync(".").filter(
    (file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts") && !/\.config\./.test(file),
  ),
];
const TEST_SUPPORT = "|^lib/testing/|/testing\\.ts$";
const EXCLUDE =
  "(^|/)node_modules/|^lib/db/generated/|^\\.next|\\.test\\.tsx?$|\\.spec\\.tsx?$|^e2e/" +
  (process.argv.includes("--test-support") ? "" : TEST_SUPPORT);
const EXAMPLES_PER_EDGE = 3;

/** lib/<name>/… → "lib/<name>"; other top-level folders → their name; a root file → itself. */
export function folderOf(path: string): string | null {
  const parts = path.split("/");
  if (!ROOTS.includes(parts[0] ?? "")) return null;
  if (parts[0] === "lib" && parts.length > 2) return `lib/${parts[1]}`;
  return parts[0] ?? null;
}

type Graph = Map<string, Map<string, string[]>>; // from → to → example file imports

/** Tarjan's strongly connected components; only those of more than one node are returned, sorted. */
export function cycles(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}

async function folderGraph(): Promise<{ graph: Graph; modules: number }> {
  const result = await cruise(
    ROOTS,
    // Type-only imports count: they are still a dependency between folders.
    {
      tsPreCompilationDeps: true,
      tsConfig: { fileName: "tsconfig.json" },
      exclude: { path: EXCLUDE },
      doNotFollow: { path: "node_modules" },
    },
    {},
    { tsConfig: extractTSConfig("tsconfig.json") },
  );
  if (typeof result.output === "string") throw new Error("dependency-cruiser returned text, not a result");
  const graph: Graph = new Map();
  let modules = 0;
  for (const mod of result.output.modules) {
    const from = folderOf(mod.source);
    if (!from || mod.coreModule || mod.couldNotResolve) continue;
    modules += 1;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const dep of mod.dependencies) {
      const to = folderOf(dep.resolved);
      if (!to || to === from || dep.coreModule || dep.couldNotResolve) continue;
      const edges = graph.get(from)!;
      const examples = edges.get(to) ?? [];
      if (examples.length < EXAMPLES_PER_EDGE) examples.push(`${mod.source} → ${dep.resolved}`);
      edges.set(to, examples);
    }
  }
  return { graph, modules };
}

async function main(): Promise<void> {
  const { graph, modules } = await folderGraph();
  const sccs = cycles(graph);
  let edgeCount = 0;
  const report = sccs.map((scc) => {
    const members = new Set(scc);
    const edges = scc.flatMap((from) =>
      [...(graph.get(from)?.entries() ?? [])]
        .filter(([to]) => members.has(to))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([to, examples]) => ({ from, to, examples })),
    );
    edgeCount += edges.length;
    return { folders: scc, edges };
  });
  const figures = {
    modules,
    folders: graph.size,
    folderEdges: [...graph.values()].reduce((n, e) => n + e.size, 0),
    foldersInCycles: sccs.reduce((n, s) => n + s.length, 0),
    edgesInCycles: edgeCount,
  };
  const knownAt = process.argv.indexOf("--known");
  const known = new Set(
    knownAt < 0
      ? []
      : readFileSync(process.argv[knownAt + 1] ?? "", "utf8")
          .split("\n")
          .map((line) => line.replace(/#.*/, "").trim())
          .filter(Boolean)
          .map((line) => line.split(/\s*->\s*/).join(" -> ")),
  );
  const inCycles = report.flatMap(({ edges }) => edges.map(({ from, to }) => `${from} -> ${to}`));
  const unknown = inCycles.filter((edge) => !known.has(edge));
  const gone = [...known].filter((edge) => !inCycles.includes(edge));
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify({ figures, cycles: report }, null, 2));
  } else {
    // With a list of known edges, the details only when a cycle goes through a new one.
    const details = knownAt < 0 || unknown.length > 0 ? report : [];
    for (const [i, { folders, edges }] of details.entries()) {
      console.log(`cycle ${i + 1}: ${folders.length} folders: ${folders.join(", ")}`);
      for (const { from, to, examples } of edges) {
        console.log(`  ${from} → ${to}${known.has(`${from} -> ${to}`) ? " (known)" : ""}`);
        for (const example of examples) console.log(`      ${example}`);
      }
    }
    console.log(
      `${figures.modules} modules, ${figures.folders} folders, ${figures.folderEdges} folder edges; ` +
        `${figures.foldersInCycles} folders and ${figures.edgesInCycles} folder edges in cycles` +
        (knownAt < 0 ? "" : ` (${inCycles.length - unknown.length} known)`),
    );
  }
  if (knownAt >= 0) {
    for (const edge of gone)
      console.log(`known edge no longer in a cycle (remove it from the list): ${edge}`);
    for (const edge of unknown) console.error(`folder cycle through an edge not in the known list: ${edge}`);
  }
  if (unknown.length > 0) process.exitCode = 1;
}

await main();
