// Runs every case of cases.json on workerd through miniflare and prints the answers as JSON:
//   node run-miniflare.mjs <miniflare module url> <fixture dir> <origin url> <output file>
// Output file: [{ name, status, headers: [[name, value]...], body }] (stdout carries the Worker's console).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [, , miniflarePath, fixtureDir, origin, outFile] = process.argv;
const { Miniflare } = await import(miniflarePath);
const spec = JSON.parse(readFileSync(join(fixtureDir, 'cases.json'), 'utf8'));

// "sqlite": true makes every Durable Object class SQLite-backed (the SQL API needs it).
const durableObjects = Object.fromEntries(Object.entries(spec.durableObjects || {})
  .map(([binding, className]) => [binding, spec.sqlite ? { className, useSQLite: true } : className]));
// "modules": { "<glob **/*.ext>": "<Wrangler module type>" } lists every file of the fixture with its
// type (other .js files are ES modules), worker.js first: the bundle exactly as Wrangler uploads it.
function typedModules(rules) {
  const files = [];
  const walk = (dir) => readdirSync(dir, { withFileTypes: true }).forEach((e) => (e.isDirectory() ? walk(join(dir, e.name)) : files.push(join(dir, e.name))));
  walk(fixtureDir);
  const typeOf = (f) => {
    for (const [glob, type] of Object.entries(rules)) if (f.endsWith(glob.replace(/^\*\*\/\*/, ''))) return type;
    return f.endsWith('.js') ? 'ESModule' : null;
  };
  const main = join(fixtureDir, 'worker.js');
  return files.filter((f) => typeOf(f) !== null).sort((a, b) => (a === main ? -1 : b === main ? 1 : a.localeCompare(b)))
    .map((f) => ({ type: typeOf(f), path: f, contents: readFileSync(f) }));
}
// "explicitModules": true hands workerd worker.js as its only module instead of letting miniflare
// walk the imports (it refuses computed import() specifiers and bare node built-ins).
const moduleOptions = spec.modules
  ? { modules: typedModules(spec.modules), modulesRoot: fixtureDir }
  : spec.explicitModules
    ? { modules: [{ type: 'ESModule', path: 'worker.js', contents: readFileSync(join(fixtureDir, 'worker.js'), 'utf8') }] }
    : { modules: true, scriptPath: join(fixtureDir, 'worker.js'), modulesRules: [{ type: 'ESModule', include: ['**/*.js'] }] };
const mf = new Miniflare({
  ...moduleOptions,
  compatibilityDate: spec.compatibilityDate || '2025-01-01',
  compatibilityFlags: spec.compatibilityFlags || [],
  bindings: spec.vars || {},
  durableObjects,
  // "kvNamespaces" / "r2Buckets": { BINDING: namespace id / bucket name } (Differential.bundle gives cellgate the same)
  kvNamespaces: spec.kvNamespaces || {},
  r2Buckets: spec.r2Buckets || {},
  // "d1Databases": { BINDING: database id } (Differential.envBindings gives cellgate database_id)
  d1Databases: spec.d1Databases || {},
  // "workflows": { BINDING: { name, className } } (Differential.envBindings gives cellgate workflow_name, class_name)
  workflows: spec.workflows || {},
  // "queueProducers": { BINDING: { queueName, deliveryDelay? } } / "queueConsumers": { queue: { maxBatchSize, … } }, as miniflare takes them
  queueProducers: spec.queueProducers || {},
  queueConsumers: spec.queueConsumers || {},
  // "services": { BINDING: { entrypoint?, props? } }: service bindings to this very Worker (Differential.envBindings)
  serviceBindings: Object.fromEntries(Object.entries(spec.services || {})
    .map(([binding, s]) => [binding, { name: Symbol.for('miniflare.kCurrentWorker'), ...s }])),
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
