// The Node globals of nodejs_compat_v2 (nodejs_compat from 2024-09-23): Buffer, process, global,
// setImmediate, clearImmediate (and, from 2026-02-10, setTimeout/setInterval). Each is an accessor until first use, so a Worker that never touches
// them does not load the node: modules (node-polyfills.js); assigning one replaces it, as in workerd.
(function (host, internal) {
  'use strict';
  internal.installNodeGlobals = function () {
    const lazy = (name, get) => {
      Object.defineProperty(globalThis, name, {
        get() { const v = get(); define(name, v); return v; },
        set(v) { define(name, v); },
        configurable: true, enumerable: false,
      });
    };
    const define = (name, value) => Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
    lazy('Buffer', () => internal.nodeModule('buffer').Buffer);
    lazy('process', () => internal.nodeModule('process'));
    lazy('setImmediate', () => internal.nodeModule('timers').setImmediate);
    lazy('clearImmediate', () => internal.nodeModule('timers').clearImmediate);
    define('global', globalThis);
    // From 2026-02-10 (enable_nodejs_global_timers) the global timers are node:timers', returning Timeouts.
    if (internal.nodeConfig.globalTimers) {
      lazy('setTimeout', () => internal.nodeModule('timers').setTimeout);
      lazy('setInterval', () => internal.nodeModule('timers').setInterval);
    }
  };
});
