// Globals of the Workers platform that cellgate does not implement: constructing one throws a
// TypeError naming it, so code fails loudly instead of misbehaving.
(function (host, internal) {
  'use strict';
  const NAMES = ['HTMLRewriter', 'EventSource', 'MessageChannel', 'MessagePort', 'BroadcastChannel'];
  for (const name of NAMES) {
    const ctor = { [name]: function () { throw internal.unsupported(name); } }[name];
    internal.defineGlobal(name, ctor);
  }
  internal.defineGlobal('navigator', Object.freeze({ userAgent: 'Cloudflare-Workers', hardwareConcurrency: 1, language: 'en' }));
  internal.defineGlobal('performance', Object.freeze({ timeOrigin: 0, now: () => Date.now() }));
  internal.defineGlobal('scheduler', Object.freeze({ wait: (ms) => new Promise((r) => setTimeout(r, ms)) }));
  internal.defineGlobal('self', globalThis);
});
