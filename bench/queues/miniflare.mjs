// The same Worker on miniflare (workerd): node miniflare.mjs <miniflare index.js url> <worker dir> <n> <batch> <rounds>
// After one warm-up round, prints one line per round: produce_ms end_to_end_ms msgs_per_s (end to end: from the first send to the last count).
import { readFileSync } from 'node:fs';
const [, , mfUrl, dir, n, batch, rounds] = process.argv;
const { Miniflare } = await import(mfUrl);
const mf = new Miniflare({
  modules: [{ type: 'ESModule', path: 'index.js', contents: readFileSync(dir + '/src/index.js', 'utf8') }],
  compatibilityDate: '2025-04-01',
  durableObjects: { COUNTER: { className: 'Counter', useSQLite: true } },
  queueProducers: { JOBS: { queueName: 'bench-jobs' } },
  queueConsumers: { 'bench-jobs': { maxBatchSize: 100, maxBatchTimeout: 1 } },
});
const count = async () => Number(await (await mf.dispatchFetch('http://bench/count')).text());
// one warm-up round (not printed), as run.sh gives the node
await (await mf.dispatchFetch(`http://bench/produce?n=${batch}&batch=${batch}`)).text();
while (await count() < Number(batch)) await new Promise((res) => setTimeout(res, 20));
for (let r = 0; r < Number(rounds); r++) {
  const before = await count();
  const t0 = Date.now();
  await (await mf.dispatchFetch(`http://bench/produce?n=${n}&batch=${batch}`)).text();
  const produced = Date.now() - t0;
  while (await count() < before + Number(n)) await new Promise((res) => setTimeout(res, 20));
  const total = Date.now() - t0;
  console.log(`${produced} ${total} ${Math.round(Number(n) * 1000 / total)}`);
}
await mf.dispose();
