// Serves a bench project through miniflare's programmatic API (workerd inside), its state
// persisted on disk. Env: PORT, PERSIST_DIR, WORKER (the module), PEERS_DIR (where npm installed
// miniflare: ESM imports do not honour NODE_PATH, so we resolve it from there), and PROJECT:
//   worker  bench/worker: the two Durable Object classes (state under PERSIST_DIR)
//   site    bench/site: ASSETS_DIR served by miniflare's router and asset Workers in front of the
//           Worker (has_user_worker, as Wrangler configures a project with `main`), and the KV
//           namespace KV (id bench-kv, as in bench/site/wrangler.jsonc; entries under PERSIST_DIR)
//   d1      bench/d1: the D1 database DB (id bench-d1, as in bench/d1/worker/wrangler.jsonc; under PERSIST_DIR)
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const peers = process.env.PEERS_DIR;
const { Miniflare, Log, LogLevel } = await import(
  pathToFileURL(createRequire(path.join(peers, "package.json")).resolve("miniflare")).href);

const persist = path.resolve(process.env.PERSIST_DIR);
const project = process.env.PROJECT || "worker";
const perProject = {
  worker: {
    durableObjects: {
      COUNTER: { className: "Counter", useSQLite: true },
      KV_COUNTER: { className: "KvCounter", useSQLite: true },
    },
    durableObjectsPersist: persist,
  },
  site: {
    assets: { directory: path.resolve(process.env.ASSETS_DIR || "."), routerConfig: { has_user_worker: true } },
    kvNamespaces: { KV: "bench-kv" },
    kvPersist: persist,
  },
  d1: {
    d1Databases: { DB: "bench-d1" },
    d1Persist: persist,
  },
}[project];
if (perProject === undefined) throw new Error(`PROJECT must be worker, site or d1, not '${project}'`);
if (project === "site" && !process.env.ASSETS_DIR) throw new Error("PROJECT=site needs ASSETS_DIR");

const mf = new Miniflare({
  host: "127.0.0.1",
  port: Number(process.env.PORT),
  modules: true,
  scriptPath: path.resolve(process.env.WORKER),
  compatibilityDate: "2025-04-01",
  ...perProject,
  cf: false, // offline: no Request.cf download
  log: new Log(LogLevel.WARN),
});
console.log(`miniflare serving on ${await mf.ready}`);
for (const sig of ["SIGTERM", "SIGINT"]) {
  process.on(sig, async () => { await mf.dispose(); process.exit(0); });
}
