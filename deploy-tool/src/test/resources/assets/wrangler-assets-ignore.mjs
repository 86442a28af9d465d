// What Wrangler 4.86.0's asset manifest step would upload from each directory, with the `ignore`
// package Wrangler bundles (5.3.1): the default patterns for .assetsignore, _redirects and
// _headers, then every line of <dir>/.assetsignore split on "\n"; every path a recursive readdir
// lists is tested (directories too), and of the paths left, the regular files are uploaded. With
// no .assetsignore, a `_worker.js` file, or any path starting with `_worker.js`, is an error.
//
//   node wrangler-assets-ignore.mjs <ignore's index.js> <job.json> <out.json>
// job.json: ["<dir>", ...]; out.json: {"<dir>": {"uploaded": [...], "workerJs": null|"file"|"directory"}}
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const [ignorePath, jobPath, outPath] = process.argv.slice(2);
const ignore = createRequire(import.meta.url)(ignorePath);
const out = {};
for (const dir of JSON.parse(fs.readFileSync(jobPath, "utf8"))) {
  const patterns = ["/.assetsignore", "/_redirects", "/_headers"];
  const ignoreFile = path.join(dir, ".assetsignore");
  const present = fs.existsSync(ignoreFile);
  if (present) {
    patterns.push(...fs.readFileSync(ignoreFile, "utf8").split("\n"));
  }
  const ignorer = ignore().add(patterns);
  const uploaded = [];
  let workerJs = null;
  for (const rel of fs.readdirSync(dir, { recursive: true })) {
    if (ignorer.test(rel).ignored) {
      continue;
    }
    const stat = fs.statSync(path.join(dir, rel));
    if (stat.isDirectory()) {
      continue;
    }
    if (!present && workerJs === null) {
      workerJs = rel === "_worker.js" ? "file" : rel.startsWith("_worker.js") ? "directory" : null;
    }
    uploaded.push("/" + rel);
  }
  out[dir] = { uploaded: uploaded.sort(), workerJs };
}
fs.writeFileSync(outPath, JSON.stringify(out));
