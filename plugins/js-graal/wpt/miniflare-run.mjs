// The workerd reference for the WPT subset (README, "Web Platform Tests subset"): runs the very
// module texts that WptSubsetRun generated and ran on cellgate (target/wpt/bundles/*/) on
// workerd through miniflare, then compares the two.
//
//   node miniflare-run.mjs <target/wpt> <node_modules holding miniflare>
//
// Writes <target/wpt>/results-workerd.json (the same shape as results.json) and compare.md: the
// per-area table for both runtimes and every subtest that passes on workerd but not on cellgate.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [, , outDir, nodeModules] = process.argv;
const require = createRequire(join(nodeModules, 'noop.js'));
const { Miniflare } = await import(pathToFileURL(require.resolve('miniflare')).href);
const STATUS = ['PASS', 'FAIL', 'TIMEOUT', 'NOTRUN', 'PRECONDITION_FAILED'];
const HARNESS = ['OK', 'ERROR', 'TIMEOUT', 'PRECONDITION_FAILED'];

const cellgate = JSON.parse(readFileSync(join(outDir, 'results.json'), 'utf8'));
const workerd = [];
for (const c of cellgate) {
  if (c.skipped || !c.bundle) {
    workerd.push({ file: c.file, area: c.area, skipped: c.skipped || 'no bundle' });
    continue;
  }
  const r = { file: c.file, area: c.area, bundle: c.bundle };
  const t0 = Date.now();
  let mf;
  try {
    mf = new Miniflare({
      modules: [
        { type: 'ESModule', path: 'index.mjs', contents: readFileSync(join(outDir, c.bundle, 'index.mjs'), 'utf8') },
        { type: 'CommonJS', path: 'wpt-body.cjs', contents: readFileSync(join(outDir, c.bundle, 'wpt-body.cjs'), 'utf8') },
      ],
      compatibilityDate: '2025-04-01',
    });
    const res = await mf.dispatchFetch('http://wpt.test/' + c.file);
    const text = await res.text();
    let got;
    try {
      got = JSON.parse(text);
    } catch {
      got = { harness: { status: 1, message: 'not JSON (HTTP ' + res.status + '): ' + text.slice(0, 300) }, tests: [] };
    }
    r.harness = { status: HARNESS[got.harness.status] ?? String(got.harness.status), message: got.harness.message };
    r.tests = got.tests.map((t) => ({ name: t.name, status: STATUS[t.status] ?? String(t.status), message: t.message }));
  } catch (e) {
    r.harness = { status: 'ERROR', message: 'miniflare: ' + (e && e.message) };
    r.tests = [];
  } finally {
    r.wallMs = Date.now() - t0;
    if (mf) await mf.dispose().catch(() => {});
  }
  const pass = r.tests.filter((t) => t.status === 'PASS').length;
  console.log(`${c.file.padEnd(60)} ${String(pass).padStart(4)}/${String(r.tests.length).padEnd(4)} pass  harness ${r.harness.status}`
    + (r.harness.status === 'OK' ? '' : ` (${String(r.harness.message).slice(0, 160)})`));
  workerd.push(r);
}
writeFileSync(join(outDir, 'results-workerd.json'), JSON.stringify(workerd, null, 2));

function tally(results) {
  const areas = {};
  for (const r of results) {
    if (r.skipped) continue;
    const a = (areas[r.area] ??= { files: 0, subtests: 0, passed: 0, harnessErrors: 0 });
    a.files++;
    a.subtests += r.tests.length;
    a.passed += r.tests.filter((t) => t.status === 'PASS').length;
    if (r.harness.status !== 'OK') a.harnessErrors++;
  }
  const all = { files: 0, subtests: 0, passed: 0, harnessErrors: 0 };
  for (const a of Object.values(areas)) for (const k of Object.keys(all)) all[k] += a[k];
  return { areas, all };
}
const pct = (a) => (a.subtests ? (100 * a.passed / a.subtests).toFixed(1) + '%' : '-');
const cg = tally(cellgate);
const wd = tally(workerd);
const lines = [];
lines.push('| area | files | cellgate passed / subtests | cellgate pass rate | workerd passed / subtests | workerd pass rate | harness errors (cellgate / workerd) |');
lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const area of [...new Set([...Object.keys(cg.areas), ...Object.keys(wd.areas)])].sort()) {
  const c = cg.areas[area] || { files: 0, subtests: 0, passed: 0, harnessErrors: 0 };
  const w = wd.areas[area] || { files: 0, subtests: 0, passed: 0, harnessErrors: 0 };
  lines.push(`| ${area} | ${c.files} | ${c.passed} / ${c.subtests} | ${pct(c)} | ${w.passed} / ${w.subtests} | ${pct(w)} | ${c.harnessErrors} / ${w.harnessErrors} |`);
}
lines.push(`| **all** | ${cg.all.files} | ${cg.all.passed} / ${cg.all.subtests} | ${pct(cg.all)} | ${wd.all.passed} / ${wd.all.subtests} | ${pct(wd.all)} | ${cg.all.harnessErrors} / ${wd.all.harnessErrors} |`);
lines.push('');
lines.push('## Passes on workerd, not on cellgate');
lines.push('');
const clip = (s, n) => { const one = String(s ?? '').replace(/\s+/g, ' '); return one.length > n ? one.slice(0, n - 1) + '…' : one; };
let diffs = 0;
for (const w of workerd) {
  if (w.skipped) continue;
  const c = cellgate.find((x) => x.file === w.file);
  const byName = new Map();
  for (const t of (c && c.tests) || []) if (!byName.has(t.name)) byName.set(t.name, t);
  for (const t of w.tests) {
    if (t.status !== 'PASS') continue;
    const ct = byName.get(t.name);
    if (ct && ct.status === 'PASS') continue;
    diffs++;
    const why = ct ? `${ct.status}: ${clip(ct.message, 240)}` : `missing on cellgate (harness ${c ? c.harness.status + ': ' + clip(c.harness.message, 200) : '?'})`;
    lines.push(`- ${w.area} | ${w.file} | ${clip(t.name, 160)} | ${why}`);
  }
}
lines.splice(lines.indexOf('## Passes on workerd, not on cellgate') + 2, 0, `${diffs} subtests.`, '');
writeFileSync(join(outDir, 'compare.md'), lines.join('\n') + '\n');
console.log('== cellgate beside workerd');
console.log(lines.slice(0, Object.keys(cg.areas).length + 3).join('\n'));
console.log(`(${diffs} subtests pass on workerd and not on cellgate: ${join(outDir, 'compare.md')})`);
