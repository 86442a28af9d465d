// Runs one Worker in miniflare (workerd, the reference) with text bindings — what a Cloudflare
// Worker's vars and secrets both are at run time — and writes the status and body of each path
// as JSON: what SecretsDifferentialTest compares a cellgate node's answers with.
// Usage: node miniflare-env.mjs <miniflare index.js> <job.json> <out.json>
import { readFileSync, writeFileSync } from "node:fs";
const [entry, jobFile, outFile] = process.argv.slice(2);
const { Miniflare } = await import(entry);
const job = JSON.parse(readFileSync(jobFile, "utf8"));
const mf = new Miniflare({
  modules: true,
  script: job.script,
  compatibilityDate: job.compatibilityDate,
  compatibilityFlags: job.compatibilityFlags,
  bindings: job.bindings,
});
const out = {};
for (const path of job.paths) {
  const r = await mf.dispatchFetch("http://localhost" + path);
  out[path] = { status: r.status, body: await r.text() };
}
await mf.dispose();
writeFileSync(outFile, JSON.stringify(out));
