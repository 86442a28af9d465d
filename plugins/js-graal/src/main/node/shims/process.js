// The `process` the polyfill packages see (readable-stream's nextTick, path-browserify's cwd):
// microtasks, as workerd's process.nextTick, and the Worker's working directory.
const nextTick = (fn, ...args) => queueMicrotask(() => fn(...args));
module.exports = { nextTick, cwd: () => '/bundle', env: {}, browser: false, version: 'v22.19.0', versions: {}, platform: 'linux' };
