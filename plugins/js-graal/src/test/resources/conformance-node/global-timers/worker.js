// nodejs_compat from 2026-02-10 (NodeConformanceTest): the global setTimeout/setInterval are
// node:timers' and return Timeout objects; clearTimeout takes them or their number.
import timers from 'node:timers';
import { AsyncLocalStorage } from 'node:async_hooks';
const als = new AsyncLocalStorage();
const cases = {
  'global-timers-are-node': async () => {
    const t = setTimeout(() => {}, 1);
    const out = { same: setTimeout === timers.setTimeout, ctor: t.constructor.name, proto: Object.getOwnPropertyNames(Object.getPrototypeOf(t)),
      num: typeof +t, interval: typeof setInterval(() => {}, 1000), timeoutExport: typeof timers.Timeout };
    clearTimeout(t);
    const x = setTimeout(() => { out.clearedByNumber = false; }, 2); clearTimeout(+x);
    out.fired = await new Promise((r) => setTimeout((a) => r(a), 1, 'arg'));
    out.refreshed = await new Promise((r) => { const y = setTimeout(() => r('refreshed'), 1); y.refresh(); });
    return out;
  },
  'global-timers-keep-async-context': () => als.run('kept', () => new Promise((r) => setTimeout(() => r(als.getStore()), 1))),
};
export default { async fetch(req) { const i = setInterval(() => {}, 100000); clearInterval(i); return Response.json(await cases[new URL(req.url).pathname.split('/')[2]]()); } };
