// The visitors' messenger (messenger/): its own small bundle, built by esbuild into .messenger/, which the server
// serves at /messenger.js and /messenger/… (lib/messenger/assets.ts). Not a Next page: see
// docs/decisions.md, "Messenger bundle". Run by `npm run build`, `npm run dev`, scripts/test.sh and, when the
// bundle is missing, `npm start` and the browser tests' setup.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const src = path.join(root, "messenger");
// MESSENGER_OUT: another directory (the loader's size test builds into a temporary one).
const out = process.env.MESSENGER_OUT
  ? path.resolve(process.env.MESSENGER_OUT)
  : path.join(root, ".messenger");

const options = {
  bundle: true,
  minify: true,
  format: "iife",
  // Browsers from 2020 on: the loader's optional chaining and `??` as written, not lowered (its budget).
  target: "es2020",
  legalComments: "none",
  charset: "utf8",
  write: false,
  outdir: out,
  logLevel: "warning",
};

// The launcher's news first (messenger/news-load.ts): the loader asks for it by its content hash, the start of the
// ETag lib/messenger/assets.ts gives the file, which serves that URL as immutable. Written first, too, so a server
// never has a loader that asks for a chunk not there yet.
const chunk = await esbuild.build({ ...options, entryPoints: { news: path.join(src, "news.ts") } });
const newsVersion = crypto
  .createHash("sha256")
  .update(chunk.outputFiles[0].contents)
  .digest("base64url")
  .slice(0, 8); // lib/messenger/assets.ts's VERSION_LENGTH

const result = await esbuild.build({
  ...options,
  entryPoints: {
    messenger: path.join(src, "loader.ts"),
    frame: path.join(src, "frame.ts"),
    "frame-style": path.join(src, "frame.css"),
  },
  define: { NEWS_VERSION: JSON.stringify(newsVersion) },
});

const files = [...chunk.outputFiles, ...result.outputFiles].map((f) => ({
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
