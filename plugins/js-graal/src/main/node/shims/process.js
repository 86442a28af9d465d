// The `process` the polyfill packages see (readable-stream's nextTick, path-browserify's cwd):
// microtasks, as workerd's process.nextTick, and the Worker's working directory.
const nextTick = (fn, ...args) => queueMicrotask(() => fn(...args));
// cwd '/': workerd's path.resolve() resolves against the root (its process.cwd() says /bundle).
module.exports = { nextTick, cwd: () => '/', env: {}, browser: false, version: 'v22.19.0', versions: {}, platform: 'linux' };
