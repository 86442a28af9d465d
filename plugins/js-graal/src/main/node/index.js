// The node: modules of nodejs_compat, one lazily built module value per name. esbuild bundles this
// file and the npm polyfills it reaches into the runtime file cellgate/runtime/node-polyfills.js
// (build-node-modules.mjs), whose function lazy.js evaluates into a context the first time the
// context imports a node: module. Each value is built on first import (esbuild keeps the required
// files lazy), so a Worker importing node:path pays for path-browserify, not for zlib.
/* global internal */
import { notImplemented } from './errors.js';

const config = () => internal.nodeConfig;

const factories = {
  // workerd's node:assert is strict assert (assert.equal compares with ===), like node:assert/strict.
  assert: () => require('./modules/assert.js').default.strict,
  'assert/strict': () => require('./modules/assert.js').default.strict,
  async_hooks: () => require('./modules/async-hooks.js').createAsyncHooks(
    config().naiveAsyncContext ? require('./naive-async-context.js').naiveAsyncContext() : internal.AsyncContext),
  buffer: () => require('./modules/buffer.js').default,
  crypto: () => require('./modules/crypto.js').default,
  diagnostics_channel: () => require('./modules/diagnostics-channel.js').default,
  events: () => require('./modules/events.js').default,
  os: () => require('./modules/os.js').default,
  path: () => require('./modules/path.js').default,
  'path/posix': () => nodeModule('path').posix,
  'path/win32': () => nodeModule('path').win32,
  process: () => require('./modules/process.js').createProcess(config(), getBuiltinModule),
  punycode: () => require('./modules/punycode.js').default,
  querystring: () => require('./modules/querystring.js').default,
  stream: () => require('./modules/stream.js').default,
  'stream/consumers': () => require('./modules/stream-consumers.js').default,
  'stream/promises': () => require('./modules/stream.js').promises,
  'stream/web': () => require('./modules/stream-web.js').default,
  string_decoder: () => require('./modules/string-decoder.js').default,
  sys: () => nodeModule('util'),
  timers: () => require('./modules/timers.js').default,
  'timers/promises': () => require('./modules/timers.js').promises,
  url: () => require('./modules/url.js').default,
  util: () => require('./modules/util.js').default,
  'util/types': () => nodeModule('util').types,
  zlib: () => require('./modules/zlib.js').default,
};

const values = new Map();

// The value `require(name)` has in Node (the default export; named exports are its properties).
function nodeModule(name) {
  let v = values.get(name);
  if (v === undefined) {
    const f = factories[name];
    if (f === undefined) throw new Error('cellgate: no node module ' + name);
    v = f();
    values.set(name, v);
  }
  return v;
}

// process.getBuiltinModule(): the modules this Worker may import, with or without the node: prefix.
function getBuiltinModule(id) {
  if (typeof id !== 'string') {
    const e = new TypeError('The "id" argument must be of type string. Received ' + (id === null ? 'null' : typeof id));
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
  const name = id.startsWith('node:') ? id.slice(5) : id;
  const allowed = config().modules;
  return allowed && allowed.includes(name) ? nodeModule(name) : undefined;
}

// One named export of a facade module (cellgate/modules/node/*.js): the value's property, or for a
// name workerd exports that cellgate does not implement, a function that throws naming it. A
// property whose getter throws (a platform class cellgate lacks) becomes such a function too.
function nodePick(value, module, name) {
  let v;
  try {
    v = value[name];
  } catch (e) {
    return () => { throw e; };
  }
  return v !== undefined || name in Object(value) ? v : notImplemented(module + '.' + name);
}

internal.nodeModule = nodeModule;
internal.nodePick = nodePick;
