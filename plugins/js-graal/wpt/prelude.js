// The Worker side of the WPT subset run (README, "Web Platform Tests subset"). WptSubsetRun puts
// this file in every generated main module, whose fetch handler calls __wptSetupGlobals() and then
// __wptServe(__wptRun); __wptRun() is the export of the generated CommonJS module: testharness.js,
// the reporter hook, the test's META scripts and the test file, in that order, in one function.
// The same module texts run on cellgate and on workerd (miniflare-run.mjs).
//
// What a WPT dedicated worker has that a Workers global does not, and is faked here:
// - `location` (subset-tests-by-key.js reads location.search; testharness.js names untitled
//   tests after location.pathname);
// - DedicatedWorkerGlobalScope, so that testharness.js picks its dedicated-worker environment
//   (explicit done(), no harness timeout: the runner's per-file timeout stands in) and not the
//   service-worker one, which would wait for an "install" event;
// - postMessage (that environment posts its events to self);
// - GLOBAL.isWorker() & co., as WPT's generated .any.worker.js wrapper defines them;
// - the WPT server, for the few data files the tests fetch relative to themselves
//   (url/resources/*.json): fetch() answers those from __WPT.data and passes anything else on.

function __wptSetupGlobals() {
  const g = globalThis;
  const href = 'http://wpt.test/' + __WPT.file;
  const parsed = new URL(href);
  const location = {
    href, origin: parsed.origin, protocol: parsed.protocol, host: parsed.host, hostname: parsed.hostname,
    port: parsed.port, pathname: parsed.pathname, search: '', hash: '', toString() { return href; },
  };
  Object.defineProperty(g, 'location', { value: location, configurable: true, writable: true });
  if (typeof g.postMessage !== 'function') g.postMessage = function postMessage() {};
  g.DedicatedWorkerGlobalScope = class DedicatedWorkerGlobalScope {
    static [Symbol.hasInstance](o) { return o === globalThis; }
  };
  g.GLOBAL = { isWindow: () => false, isWorker: () => true, isShadowRealm: () => false };
  if (__WPT.title) g.META_TITLE = __WPT.title;
  const realFetch = g.fetch;
  g.fetch = function fetch(input, init) {
    const url = new URL(typeof input === 'string' || input instanceof URL ? String(input) : input.url, href);
    if (url.origin === parsed.origin) {
      const path = url.pathname.slice(1);
      if (Object.prototype.hasOwnProperty.call(__WPT.data, path)) {
        const type = path.endsWith('.json') ? 'application/json' : 'text/plain';
        return Promise.resolve(new Response(__WPT.data[path], { headers: { 'content-type': type } }));
      }
      return Promise.resolve(new Response('not in the WPT subset bundle: ' + path, { status: 404 }));
    }
    return realFetch.call(g, input, init);
  };
}

const __wptState = { known: [], seen: new Set(), completion: null, uncaught: [] };
globalThis.__wptAttachReporter = __wptAttachReporter; // called from the CommonJS module, after testharness.js

// Called right after testharness.js: add_*_callback are its globals by then.
function __wptAttachReporter() {
  add_test_state_callback((t) => {
    if (!__wptState.seen.has(t)) {
      __wptState.seen.add(t);
      __wptState.known.push(t);
    }
  });
  __wptState.completion = new Promise((resolve) => {
    add_completion_callback((tests, status) => resolve({ tests, status }));
  });
}

function __wptTestJson(t) {
  return { name: String(t.name), status: t.status, message: t.message == null ? null : String(t.message) };
}

async function __wptServe(run) {
  const t0 = Date.now();
  try {
    run();
  } catch (e) {
    __wptState.uncaught.push(String((e && e.stack) || e));
  }
  try {
    // As WPT's worker wrapper does after the last script: the dedicated-worker environment waits for it.
    if (__wptState.completion) done();
  } catch (e) {
    __wptState.uncaught.push('done(): ' + e);
  }
  let timer;
  const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve(null), __WPT.timeoutMs); });
  const out = __wptState.completion ? await Promise.race([__wptState.completion, timeout]) : null;
  clearTimeout(timer);
  let harness;
  let tests;
  if (out) {
    harness = { status: out.status.status, message: out.status.message == null ? null : String(out.status.message) };
    tests = out.tests.map(__wptTestJson);
  } else {
    harness = {
      status: 2,
      message: __wptState.completion ? 'harness timed out after ' + __WPT.timeoutMs + ' ms' : 'testharness.js did not load',
    };
    tests = __wptState.known.map((t) => {
      const j = __wptTestJson(t);
      if (t.phase < 4) { // not COMPLETE
        j.status = 2;
        j.message = 'Test timed out (runner timeout)';
      }
      return j;
    });
  }
  if (__wptState.uncaught.length) {
    harness = { status: 1, message: 'uncaught: ' + __wptState.uncaught.join(' | ') };
  }
  const body = JSON.stringify({ file: __WPT.file, ms: Date.now() - t0, harness, tests });
  return new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } });
}
