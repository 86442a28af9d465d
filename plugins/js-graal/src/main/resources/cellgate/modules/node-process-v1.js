// node:process for a Worker without nodejs_compat: workerd resolves it anyway, to this small object
// (an empty env, and no globals).
const features = Object.freeze({
  cached_builtins: true, debug: false, inspector: false, ipv6: true, openssl_is_boringssl: true, require_module: false,
  tls: true, tls_alpn: true, tls_ocsp: true, tls_sni: true, typescript: false, uv: true,
});
export const env = {};
export const platform = 'linux';
export { features };
export function nextTick(fn, ...args) {
  queueMicrotask(() => fn(...args));
}
export function exit(code) {
  throw new Error('The Node.js process.exit(' + (code === undefined ? '' : code) + ') API was called. Canceling the request.');
}
export function getBuiltinModule(id) {
  return id === 'process' || id === 'node:process' ? process : undefined;
}
const process = { env, exit, features, getBuiltinModule, nextTick, platform };
export default process;
