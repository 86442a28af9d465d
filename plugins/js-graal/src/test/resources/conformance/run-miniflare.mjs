// Runs every case of cases.json on workerd through miniflare and prints the answers as JSON:
//   node run-miniflare.mjs <miniflare module url> <fixture dir> <origin url> <output file>
// Output file: [{ name, status, headers: [[name, value]...], body }] (stdout carries the Worker's console).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [, , miniflarePath, fixtureDir, origin, outFile] = process.argv;
const { Miniflare } = await import(miniflarePath);
const spec = JSON.parse(readFileSync(join(fixtureDir, 'cases.json'), 'utf8'));

// "sqlite": true makes every Durable Object class SQLite-backed (the SQL API needs it).
const durableObjects = Object.fromEntries(Object.entries(spec.durableObjects || {})
  .map(([binding, className]) => [binding, spec.sqlite ? { className, useSQLite: true } : className]));
// "explicitModules": true hands workerd worker.js as its only module instead of letting miniflare
// walk the imports (it refuses computed import() specifiers and bare node built-ins).
const modules = spec.explicitModules
  ? { modules: [{ type: 'ESModule', path: 'worker.js', contents: readFileSync(join(fixtureDir, 'worker.js'), 'utf8') }] }
  : { modules: true, scriptPath: join(fixtureDir, 'worker.js'), modulesRules: [{ type: 'ESModule', include: ['**/*.js'] }] };
const mf = new Miniflare({
  ...modules,
  compatibilityDate: spec.compatibilityDate || '2025-01-01',
  compatibilityFlags: spec.compatibilityFlags || [],
  bindings: spec.vars || {},
  durableObjects,
});

const results = [];
try {
  for (const c of spec.cases) {
    const headers = Object.assign({}, c.requestHeaders || {}, { 'x-origin': origin });
    const init = { method: c.method || 'GET', headers, redirect: 'manual' };
    if (c.body !== undefined) init.body = c.body;
    const res = await mf.dispatchFetch('http://conformance.test/case/' + c.name + (c.path || ''), init);
    results.push({ name: c.name, status: res.status, headers: [...res.headers], body: await res.text() });
  }
} finally {
  await mf.dispose();
}
writeFileSync(outFile, JSON.stringify(results));
