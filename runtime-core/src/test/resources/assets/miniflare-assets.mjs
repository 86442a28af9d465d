// Serves one directory with miniflare's asset worker under each asset config and prints, as
// JSON, the status, headers and body of each request: the reference AssetRouterDifferentialTest
// compares cellgate's router with. Usage: node miniflare-assets.mjs <miniflare index.js> <job.json>
import { readFileSync } from "node:fs";
const [entry, jobFile] = process.argv.slice(2);
const { Miniflare } = await import(entry);
const job = JSON.parse(readFileSync(jobFile, "utf8"));
const out = [];
for (const config of job.configs) {
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch() { return new Response('worker', { status: 599 }); } }",
    assets: { directory: job.directory, routerConfig: { has_user_worker: false }, assetConfig: config },
  });
  for (const q of job.requests) {
    const send = async (headers) => {
      const r = await mf.dispatchFetch("http://localhost" + q.path, { method: q.method, headers, redirect: "manual" });
      const body = await r.text();
      return { status: r.status, location: r.headers.get("location"), etag: r.headers.get("etag"),
        contentType: r.headers.get("content-type"), cacheControl: r.headers.get("cache-control"), body };
    };
    const first = await send({});
    const row = { config, method: q.method, path: q.path, first };
    if (first.etag) {
      row.revalidated = await send({ "if-none-match": first.etag });
      row.revalidatedWeak = await send({ "if-none-match": "W/" + first.etag });
      row.revalidatedOther = await send({ "if-none-match": '"0000"' });
    }
    out.push(row);
  }
  await mf.dispose();
}
console.log(JSON.stringify(out));
