// node:process and the `process` global. Two shapes, as workerd has them: before
// enable_nodejs_process_v2 (nodejs_compat from 2025-09-15) a plain object with env, exit,
// features, getBuiltinModule, nextTick and platform; after it an EventEmitter with the rest of
// Node's surface, answering what a Worker can truthfully say (no pid to speak of, no file system).
/* global host */
import EventEmitter from 'events/events.js';
import { codedError } from '../errors.js';

export function createProcess(config, getBuiltinModule) {
  const env = config.populateProcessEnv ? Object.assign({}, config.env) : {};
  const features = {
    cached_builtins: true, debug: false, inspector: false, ipv6: true, openssl_is_boringssl: true, require_module: false,
    tls: true, tls_alpn: true, tls_ocsp: true, tls_sni: true, typescript: false, uv: true,
  };
  // As workerd: a microtask, and no synchronous check of the callback.
  const nextTick = (fn, ...args) => queueMicrotask(() => fn(...args));
  // As workerd: the request is cancelled with this error even if the code catches the throw.
  const exit = (code) => {
    const message = 'The Node.js process.exit(' + (code === undefined ? '' : code) + ') API was called. Canceling the request.';
    host.cancelEvent(message);
    throw new Error(message);
  };
  if (!config.processV2) {
    return { env, exit, features, getBuiltinModule, nextTick, platform: 'linux' };
  }
  const p = Object.create(EventEmitter.prototype);
  EventEmitter.call(p);
  const start = Date.now();
  const hrtime = (prev) => {
    const ns = BigInt(Math.round(performanceNow() * 1e6));
    let s = Number(ns / 1000000000n);
    let n = Number(ns % 1000000000n);
    if (prev) {
      s -= prev[0];
      n -= prev[1];
      if (n < 0) { s--; n += 1e9; }
    }
    return [s, n];
  };
  hrtime.bigint = () => BigInt(Math.round(performanceNow() * 1e6));
  const unsupported = (name) => () => {
    throw codedError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The process.' + name + ' method is not implemented');
  };
  const versions = { node: '22.19.0' };
  Object.assign(p, {
    title: 'workerd', version: 'v' + versions.node, versions, arch: 'x64', platform: 'linux',
    release: { name: 'node', lts: true, sourceUrl: '', headersUrl: '' },
    argv: ['workerd'], argv0: 'workerd', execArgv: [], execPath: '', pid: 1, ppid: 0, exitCode: undefined, env, features,
    config: {}, connected: false, debugPort: 0, noDeprecation: false, throwDeprecation: false, traceDeprecation: false,
    sourceMapsEnabled: false, allowedNodeEnvironmentFlags: new Set(), moduleLoadList: [], domain: null,
    nextTick, exit, getBuiltinModule, abort: unsupported('abort'), reallyExit: unsupported('reallyExit'),
    cwd: () => cwd, chdir: (dir) => { cwd = String(dir); },
    umask: () => 0o22, uptime: () => (Date.now() - start) / 1000, hrtime,
    memoryUsage: Object.assign(() => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }), { rss: () => 0 }),
    cpuUsage: () => ({ user: 0, system: 0 }), threadCpuUsage: () => ({ user: 0, system: 0 }),
    resourceUsage: unsupported('resourceUsage'), availableMemory: () => 0, constrainedMemory: () => 0,
    emitWarning: (warning, type) => {
      const w = typeof warning === 'string' ? new Error(warning) : warning;
      if (typeof warning === 'string') w.name = typeof type === 'string' ? type : 'Warning';
      queueMicrotask(() => p.emit('warning', w));
    },
    getuid: () => 0, geteuid: () => 0, getgid: () => 0, getegid: () => 0, getgroups: () => [],
    kill: unsupported('kill'), binding: unsupported('binding'), dlopen: unsupported('dlopen'),
    hasUncaughtExceptionCaptureCallback: () => false, setUncaughtExceptionCaptureCallback: unsupported('setUncaughtExceptionCaptureCallback'),
    getActiveResourcesInfo: () => [], loadEnvFile: unsupported('loadEnvFile'), setSourceMapsEnabled: () => {},
    ref: () => {}, unref: () => {},
  });
  let cwd = '/bundle';
  Object.defineProperty(p, Symbol.toStringTag, { value: 'process', configurable: true });
  return p;
}

// Date.now(): Workers' clocks are coarse (they advance with I/O), and `performance` may be absent.
const performanceNow = () => Date.now();
