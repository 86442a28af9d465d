// Imported by the facade ES module of each CommonJS, Text, Data and CompiledWasm module of the
// bundle (bundle/BundleModules.java); evaluated before the main module, while the runtime is
// reachable. It exposes nothing but the bundle's own modules.
const internal = globalThis[Symbol.for('cellgate.internal')];
const load = internal.bundleModule;

export function bundleModule(path) {
  return load(path);
}
