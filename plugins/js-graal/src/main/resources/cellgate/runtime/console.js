// console: to the node's log (SLF4J) with the request id of the event that logged.
(function (host, internal) {
  'use strict';

  function inspect(v, depth, seen) {
    switch (typeof v) {
      case 'string': return depth === 0 ? v : JSON.stringify(v);
      case 'function': return '[Function: ' + (v.name || 'anonymous') + ']';
      case 'bigint': return v + 'n';
      case 'symbol': return v.toString();
      case 'undefined': return 'undefined';
      case 'object': break;
      default: return String(v);
    }
    if (v === null) return 'null';
    if (v instanceof Error) return v.stack || (v.name + ': ' + v.message);
    if (seen.includes(v)) return '[Circular]';
    if (depth > 2) return Array.isArray(v) ? '[Array]' : '[Object]';
    seen = seen.concat([v]);
    if (Array.isArray(v)) return '[ ' + v.map((x) => inspect(x, depth + 1, seen)).join(', ') + ' ]';
    if (v instanceof Map) return 'Map(' + v.size + ') { ' + [...v].map(([k, x]) => inspect(k, depth + 1, seen) + ' => ' + inspect(x, depth + 1, seen)).join(', ') + ' }';
    if (v instanceof Set) return 'Set(' + v.size + ') { ' + [...v].map((x) => inspect(x, depth + 1, seen)).join(', ') + ' }';
    if (v instanceof Date) return v.toISOString();
    const keys = Object.keys(v);
    const tag = v.constructor && v.constructor.name && v.constructor.name !== 'Object' ? v.constructor.name + ' ' : '';
    if (keys.length === 0) return tag + '{}';
    return tag + '{ ' + keys.map((k) => k + ': ' + inspect(v[k], depth + 1, seen)).join(', ') + ' }';
  }

  function format(args) {
    let out = [];
    let i = 0;
    if (typeof args[0] === 'string' && args[0].includes('%')) {
      i = 1;
      out.push(args[0].replace(/%[sdifoOj%]/g, (m) => {
        if (m === '%%') return '%';
        if (i >= args.length) return m;
        const a = args[i++];
        if (m === '%d' || m === '%i') return String(m === '%i' ? Math.trunc(Number(a)) : Number(a));
        if (m === '%f') return String(Number(a));
        if (m === '%s') return typeof a === 'string' ? a : inspect(a, 1, []);
        return inspect(a, 1, []);
      }));
    }
    for (; i < args.length; i++) out.push(inspect(args[i], 0, []));
    return out.join(' ');
  }
  internal.inspect = (v) => inspect(v, 0, []);

  const counts = new Map();
  const timers = new Map();
  const console = {
    debug: (...a) => host.log(0, format(a)),
    log: (...a) => host.log(1, format(a)),
    info: (...a) => host.log(1, format(a)),
    warn: (...a) => host.log(2, format(a)),
    error: (...a) => host.log(3, format(a)),
    trace: (...a) => host.log(0, format(a) + '\n' + new Error().stack),
    dir: (v) => host.log(1, inspect(v, 1, [])),
    assert: (cond, ...a) => { if (!cond) host.log(3, 'Assertion failed' + (a.length ? ': ' + format(a) : '')); },
    count: (label = 'default') => { const n = (counts.get(label) || 0) + 1; counts.set(label, n); host.log(1, label + ': ' + n); },
    countReset: (label = 'default') => { counts.delete(label); },
    time: (label = 'default') => { timers.set(label, Date.now()); },
    timeEnd: (label = 'default') => {
      const t = timers.get(label);
      timers.delete(label);
      host.log(1, label + ': ' + (t === undefined ? 'no such label' : (Date.now() - t) + 'ms'));
    },
  };
  internal.defineGlobal('console', console);
});
