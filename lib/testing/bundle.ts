import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "../..");
const built = new Map<string, Promise<string>>();

/**
 * An entry point of ours (cli/index.ts, server.ts) compiled into one ES module that plain `node` runs, for the
 * tests that start it as a child process many times: `tsx` spends ~1 s of CPU per start on its loader and
 * transforms. Packages stay imports (the bundle sits in ROOT/.cache, so they resolve from ROOT/node_modules), and
 * each source's `import.meta.dirname` and `.url` stay its own, so paths built from them (migrations, the schema
 * engine, the build and messenger directories) are the ones tsx gives. Built once per test file; named by its
 * content, so files running at once share it and changed sources get a new one.
 */
export function bundled(entry: string): Promise<string> {
  let p = built.get(entry);
  if (!p) {
    p = build(path.resolve(ROOT, entry));
    built.set(entry, p);
  }
  return p;
}

async function build(entry: string): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [entry],
    outfile: "bundle.mjs",
    write: false,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "inline",
    logLevel: "warning",
    plugins: [
      {
        name: "source-paths",
        setup(b) {
          b.onLoad({ filter: /\.tsx?$/ }, (args) => ({
            contents: fs
              .readFileSync(args.path, "utf8")
              .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path)))
              .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)),
            loader: args.path.endsWith(".tsx") ? "tsx" : "ts",
          }));
        },
      },
    ],
  });
  const code = result.outputFiles[0]!.contents;
  const hash = crypto.createHash("sha256").update(code).digest("hex").slice(0, 12);
  const name = path
    .relative(ROOT, entry)
    .replace(/\.tsx?$/, "")
    .replaceAll(path.sep, "-");
  const file = path.join(ROOT, ".cache", `${name}-${hash}.mjs`);
  if (!fs.existsSync(file)) {
    // Written whole, then renamed: another test file may be starting it already.
    const tmp = `${file}.${process.pid}`;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(tmp, code);
    fs.renameSync(tmp, file);
  }
  return file;
}
