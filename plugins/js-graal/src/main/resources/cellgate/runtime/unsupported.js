// Globals of the Workers platform that cellgate does not implement yet: constructing one throws a
// TypeError naming it, so code fails loudly instead of misbehaving (or with a bare ReferenceError).
(function (host, internal) {
  'use strict';
  const NAMES = ['HTMLRewriter', 'Cache', 'CacheStorage'];
  for (const name of NAMES) {
    const ctor = { [name]: function () { throw internal.unsupported(name); } }[name];
    internal.defineGlobal(name, ctor);
  }
  // The Cache API: `caches` exists, and every use of it names what is missing.
  internal.defineGlobal('caches', Object.freeze(Object.create(internal.builtin('CacheStorage').prototype, {
    default: { get() { throw internal.unsupported('caches.default (the Cache API)'); }, enumerable: true },
    open: { value: () => Promise.reject(internal.unsupported('caches.open() (the Cache API)')), enumerable: true },
  })));
});
