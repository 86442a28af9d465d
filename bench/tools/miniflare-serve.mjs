// Serves the bench Worker through miniflare's programmatic API (workerd inside), with Durable
// Object state persisted on disk. Env: PORT, PERSIST_DIR, WORKER (the module), PEERS_DIR (where
// npm installed miniflare: ESM imports do not honour NODE_PATH, so we resolve it from there).
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const peers = process.env.PEERS_DIR;
const { Miniflare, Log, LogLevel } = await import(
  pathToFileURL(createRequire(path.join(peers, "package.json")).resolve("miniflare")).href);

const mf = new Miniflare({
  host: "127.0.0.1",
  port: Number(process.env.PORT),
  modules: true,
  scriptPath: path.resolve(process.env.WORKER),
  compatibilityDate: "2025-04-01",
  durableObjects: {
    COUNTER: { className: "Counter", useSQLite: true },
    KV_COUNTER: { className: "KvCounter", useSQLite: true },
  },
  durableObjectsPersist: path.resolve(process.env.PERSIST_DIR),
  cf: false, // offline: no Request.cf download
  log: new Log(LogLevel.WARN),
});
console.log(`miniflare serving on ${await mf.ready}`);
for (const sig of ["SIGTERM", "SIGINT"]) {
  process.on(sig, async () => { await mf.dispose(); process.exit(0); });
}
