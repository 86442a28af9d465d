// Runs scheduled events on workerd through miniflare and prints what the Worker recorded:
//   node run-scheduled.mjs <miniflare module url> <worker.js> <events json [{cron, scheduledTime}]>
// Prints one JSON line: { outcomes: [...], observed: the text of the Worker's fetch answer }.
import { readFileSync } from 'node:fs';

const [, , miniflarePath, workerPath, eventsJson] = process.argv;
const { Miniflare } = await import(miniflarePath);
const mf = new Miniflare({
  modules: [{ type: 'ESModule', path: 'worker.js', contents: readFileSync(workerPath, 'utf8') }],
  compatibilityDate: '2025-01-01',
  bindings: { GREETING: 'hello' },
});
try {
  const worker = await mf.getWorker();
  const outcomes = [];
  for (const e of JSON.parse(eventsJson)) {
    const r = await worker.scheduled({ cron: e.cron, scheduledTime: new Date(e.scheduledTime) });
    outcomes.push(r.outcome);
  }
  const res = await mf.dispatchFetch('http://scheduled.test/');
  console.log(JSON.stringify({ outcomes, observed: await res.text() }));
} finally {
  await mf.dispose();
}
