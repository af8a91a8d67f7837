// The visitors' messenger (messenger/): its own small bundle, built by esbuild into .messenger/, which the server
// serves at /messenger.js and /messenger/… (lib/messenger/assets.ts). Not a Next page: see
// docs/decisions.md, "Messenger bundle". Run by `npm run build`, `npm run dev`, scripts/test.sh and, when the
// bundle is missing, `npm start` and the browser tests' setup.
import fs from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const src = path.join(root, "messenger");
const out = path.join(root, ".messenger");

const result = await esbuild.build({
  entryPoints: {
    messenger: path.join(src, "loader.ts"),
    frame: path.join(src, "frame.ts"),
    "frame-style": path.join(src, "frame.css"),
  },
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2019",
  legalComments: "none",
  charset: "utf8",
  write: false,
  outdir: out,
  logLevel: "warning",
});

const files = result.outputFiles.map((f) => ({
  name: path.basename(f.path) === "frame-style.css" ? "frame.css" : path.basename(f.path),
  contents: f.contents,
}));
files.push({ name: "frame.html", contents: fs.readFileSync(path.join(src, "frame.html")) });

// Each file replaced whole (write, then rename), so a running server never reads one half written.
fs.mkdirSync(out, { recursive: true });
for (const f of files) {
  const tmp = path.join(out, `.${f.name}.${process.pid}`);
  fs.writeFileSync(tmp, f.contents);
  fs.renameSync(tmp, path.join(out, f.name));
}
console.log(`messenger: built ${files.map((f) => `${f.name} (${f.contents.length} B)`).join(", ")}`);
