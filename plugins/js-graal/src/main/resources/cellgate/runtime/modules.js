// The bundle's modules other than ES modules, as workerd loads them (SPEC §14): CommonJS (run with
// require, module, exports, __filename, __dirname in scope), Text (a string), Data (an ArrayBuffer)
// and CompiledWasm (a WebAssembly.Module). Each is evaluated once per context and is the same
// object for an `import` (the file system serves a facade ES module, bundle/BundleModules.java)
// and a `require`. Paths are absolute under /bundle/; workerd names them without that prefix.
(function (host, internal) {
  'use strict';
  const ROOT = '/bundle/';
  const files = host.bundleModules();
  const values = new Map(); // path -> default export (CommonJS: module.exports, read when asked)
  const cjsModules = new Map(); // path -> the CommonJS `module` object, kept while it evaluates (cycles)

  function noSuchModule(path) {
    return new Error('No such module "' + (path.startsWith(ROOT) ? path.slice(ROOT.length) : path) + '".');
  }

  function dirname(path) {
    const i = path.lastIndexOf('/');
    return i <= 0 ? '/' : path.slice(0, i);
  }

  // workerd resolves every specifier of a require() that has no scheme against the requiring
  // module's directory (a bare name too), with no extension or index.js guessing; but a bare Node
  // built-in under nodejs_compat_v2 ("buffer") is that built-in, as it is for an import.
  function resolve(spec, fromDir) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(spec) || files.builtin(spec)) return spec;
    const parts = spec.startsWith('/') ? [] : fromDir.slice(ROOT.length).split('/').filter((p) => p !== '');
    for (const p of spec.split('/')) {
      if (p === '' || p === '.') continue;
      if (p !== '..') parts.push(p);
      else if (parts.length > 0) parts.pop();
      else throw new TypeError('Invalid module specifier "' + spec + '".'); // above the bundle's root
    }
    return ROOT + parts.join('/');
  }

  function copyData(path) {
    if (!files.copiesData()) return new ArrayBuffer(files.data(path)); // negative control only: the shared bytes
    const view = new Uint8Array(new ArrayBuffer(files.data(path)));
    const out = new Uint8Array(view.length);
    out.set(view);
    return out.buffer;
  }

  function evaluateCommonJs(path) {
    const module = { path: path.slice(ROOT.length - 1), exports: {} };
    cjsModules.set(path, module);
    const fn = files.commonJs(path);
    const dir = dirname(path);
    const require = makeRequire(dir);
    try {
      fn(module.exports, require, module, module.path, dir.slice(ROOT.length - 1) || '/');
    } catch (e) {
      cjsModules.delete(path);
      throw e;
    }
    return module;
  }

  function makeRequire(dir) {
    // `require.length` is 0 in workerd.
    return function require() {
      const spec = String(arguments[0]);
      return requirePath(resolve(spec, dir));
    };
  }

  function requirePath(path) {
    if (!path.startsWith(ROOT)) return files.esModule(path).default; // a built-in (cloudflare:workers, node:buffer…)
    const type = files.type(path);
    if (type === null) throw noSuchModule(path);
    if (type === 'ESModule') return files.esModule(path).default; // workerd: require() of an ES module is its default export
    return bundleModule(path);
  }

  // The default export of the non-ES module at `path`.
  function bundleModule(path) {
    if (values.has(path)) return values.get(path);
    const inFlight = cjsModules.get(path);
    if (inFlight !== undefined) return inFlight.exports; // a cycle: the exports so far, as in Node and workerd
    const type = files.type(path);
    let value;
    switch (type) {
      case 'CommonJS': value = evaluateCommonJs(path).exports; break;
      case 'Text': value = files.text(path); break;
      case 'Data': value = copyData(path); break;
      case 'CompiledWasm': value = internal.wasmModuleFromHost(files.wasm(path)); break;
      default: throw noSuchModule(path);
    }
    cjsModules.delete(path);
    values.set(path, value);
    return value;
  }

  internal.bundleModule = bundleModule;
});
