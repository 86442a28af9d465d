// Serves one directory with miniflare's asset worker under each asset config and prints, as
// JSON, the status, headers and body of each request: the reference AssetRouterDifferentialTest
// compares cellgate's router with. Usage: node miniflare-assets.mjs <miniflare index.js> <job.json>
import { readFileSync } from "node:fs";
const [entry, jobFile] = process.argv.slice(2);
const { Miniflare } = await import(entry);
const job = JSON.parse(readFileSync(jobFile, "utf8"));
// Headers of miniflare's transport, not of the asset worker's answer.
const TRANSPORT = new Set(["mf-content-encoding", "transfer-encoding", "cf-cache-status", "content-length"]);
const out = [];
for (const config of job.configs) {
  // has_user_worker / run_worker_first are the router's; the rest is the asset worker's config.
  const { has_user_worker = false, run_worker_first, ...assetConfig } = config;
  const routerConfig = { has_user_worker };
  if (run_worker_first !== undefined) routerConfig.invoke_user_worker_ahead_of_assets = run_worker_first === true;
  if (Array.isArray(run_worker_first)) routerConfig.static_routing = { user_worker: run_worker_first.filter((r) => !r.startsWith("!")),
    asset_worker: run_worker_first.filter((r) => r.startsWith("!")).map((r) => r.slice(1)) };
  const mf = new Miniflare({
    modules: true,
    compatibilityDate: "2025-04-15",
    // With a Worker, its answers are told apart by this status.
    script: "export default { fetch() { return new Response('worker', { status: 299 }); } }",
    assets: { directory: job.directory, routerConfig, assetConfig },
  });
  for (const q of job.requests) {
    const send = async (extra) => {
      const r = await mf.dispatchFetch("http://localhost" + q.path,
        { method: q.method, headers: { ...(q.headers || {}), ...extra }, redirect: "manual" });
      const body = await r.text();
      const headers = {};
      for (const [k, v] of r.headers) if (!TRANSPORT.has(k)) headers[k] = v;
      return { status: r.status, headers, body };
    };
    const first = await send({});
    const row = { config, method: q.method, path: q.path, requestHeaders: q.headers || {}, first };
    if (first.headers.etag) {
      row.revalidated = await send({ "if-none-match": first.headers.etag });
      row.revalidatedWeak = await send({ "if-none-match": "W/" + first.headers.etag });
      row.revalidatedOther = await send({ "if-none-match": '"0000"' });
    }
    out.push(row);
  }
  await mf.dispose();
}
console.log(JSON.stringify(out));
