// The WebAssembly JS API as workerd allows it (README, "WebAssembly"), over Chicory
// (host/wasm/*.java). Modules come only from CompiledWasm imports: compiling bytes at run time
// (WebAssembly.compile, new WebAssembly.Module(bytes), instantiate(bytes)) throws V8's CompileError
// "Wasm code generation disallowed by embedder", as on workerd. Errors are V8's classes and messages.
(function (host, internal) {
  'use strict';
  const engine = host.bundleModules().wasmEngine();
  const kHandle = Symbol('wasm.handle');
  const kExports = Symbol('wasm.exports');
  const kBuffer = Symbol('wasm.buffer');
  const kGeneration = Symbol('wasm.generation');
  const kFunction = Symbol('wasm.function');
  const DISALLOWED = 'Wasm code generation disallowed by embedder';

  function errorClass(name) {
    const C = { [name]: class extends Error {} }[name];
    Object.defineProperty(C.prototype, 'name', { value: name, writable: true, configurable: true, enumerable: false });
    return C;
  }
  const CompileError = errorClass('CompileError');
  const LinkError = errorClass('LinkError');
  const RuntimeError = errorClass('RuntimeError');

  function raise(failure) {
    const cls = failure.errorClass();
    const C = cls === 'CompileError' ? CompileError : cls === 'LinkError' ? LinkError : cls === 'RuntimeError' ? RuntimeError
      : cls === 'RangeError' ? RangeError : Error;
    throw new C(failure.message());
  }
  const isFailure = (r) => r !== null && typeof r === 'object' && typeof r.failed === 'function' && r.failed() === true;

  // ---- values ----

  function toBigInt64(v) {
    if (typeof v !== 'bigint') {
      if (typeof v === 'object' && v !== null) v = v.valueOf();
      if (typeof v === 'boolean') v = BigInt(v);
      else if (typeof v === 'string') v = BigInt(v);
      else if (typeof v !== 'bigint') throw new TypeError('Cannot convert ' + String(v) + ' to a BigInt');
    }
    return BigInt.asIntN(64, v);
  }
  // JS value -> the number (or BigInt) Chicory gets for a Wasm value type
  function toWasm(type, v) {
    switch (type) {
      case 'i32': return v | 0;
      case 'i64': return toBigInt64(v);
      case 'f32': return Math.fround(+v);
      case 'f64': return +v;
      default: throw new TypeError('type incompatibility when transforming from/to JS');
    }
  }
  // what Java answers for a Wasm value -> JS (i64 arrives as a decimal string)
  const fromWasm = (type, v) => (type === 'i64' ? BigInt(v) : v);
  const types = (s) => (s === '' ? [] : s.split(','));

  // ---- functions ----

  function exportedFunction(fn) {
    const params = types(fn.params());
    const results = types(fn.results());
    const callable = fn.callable();
    const f = {
      [String(fn.index())](...args) {
        if (!callable) throw new TypeError('type incompatibility when transforming from/to JS');
        const coerced = new Array(params.length);
        for (let i = 0; i < params.length; i++) coerced[i] = toWasm(params[i], args[i]);
        const r = fn.invoke(...coerced);
        if (isFailure(r)) raise(r);
        if (results.length === 0) return undefined;
        if (results.length === 1) return fromWasm(results[0], r);
        const out = [];
        for (let i = 0; i < results.length; i++) out.push(fromWasm(results[i], r[i]));
        return out;
      },
    }[String(fn.index())];
    Object.defineProperty(f, 'length', { value: params.length });
    Object.defineProperty(f, kFunction, { value: fn });
    return f;
  }

  // A JavaScript function as a Wasm import: arguments from Wasm, the result coerced to its types.
  function importedFunction(f, params, results) {
    return function (...raw) {
      const args = new Array(raw.length);
      for (let i = 0; i < raw.length; i++) args[i] = fromWasm(params[i], raw[i]);
      const r = f(...args);
      if (results.length === 0) return undefined;
      if (results.length === 1) return toWasm(results[0], r);
      const arr = Array.from(r);
      return results.map((t, i) => toWasm(t, arr[i]));
    };
  }

  // ---- Module ----

  class Module {
    constructor(bytes) {
      void bytes;
      if (new.target === undefined) throw new TypeError("WebAssembly.Module must be invoked with 'new'");
      throw new CompileError('WebAssembly.Module(): ' + DISALLOWED);
    }
    static exports(module) {
      return JSON.parse(moduleHandle(module, 'exports').exports());
    }
    static imports(module) {
      return JSON.parse(moduleHandle(module, 'imports').imports()).map((d) => ({ module: d.module, name: d.name, kind: d.kind }));
    }
    static customSections(module, name) {
      if (name === undefined) throw new TypeError('WebAssembly.Module.customSections(): Argument 1 is required');
      return Array.from(moduleHandle(module, 'customSections').customSections(String(name)), (b) => {
        const v = new Uint8Array(new ArrayBuffer(b));
        const out = new Uint8Array(v.length);
        out.set(v);
        return out.buffer;
      });
    }
  }
  Object.defineProperty(Module.prototype, Symbol.toStringTag, { value: 'WebAssembly.Module', configurable: true });
  function moduleHandle(m, what) {
    if (m === null || typeof m !== 'object' || m[kHandle] === undefined || !(m instanceof Module)) {
      throw new TypeError('WebAssembly.Module.' + what + '(): Argument 0 must be a WebAssembly.Module');
    }
    return m[kHandle];
  }
  internal.wasmModuleFromHost = function (handle) {
    const m = Object.create(Module.prototype);
    Object.defineProperty(m, kHandle, { value: handle });
    return m;
  };

  // ---- Instance ----

  function instantiate(module, importObject, api) {
    const handle = module[kHandle];
    const imports = JSON.parse(handle.imports());
    if (imports.length > 0 && (importObject === undefined || importObject === null || typeof importObject !== 'object')) {
      throw new TypeError(api + ': Imports argument must be present and must be an object');
    }
    if (importObject !== undefined && (importObject === null || typeof importObject !== 'object')) {
      throw new TypeError(api + ': Argument 1 must be an object');
    }
    const resolved = [];
    for (let i = 0; i < imports.length; i++) {
      const d = imports[i];
      const where = api + ': Import #' + i + ' "' + d.module + '"';
      const ns = importObject[d.module];
      if (ns === null || (typeof ns !== 'object' && typeof ns !== 'function')) throw new TypeError(where + ': module is not an object or function');
      const v = ns[d.name];
      const named = where + ' "' + d.name + '"';
      switch (d.kind) {
        case 'function':
          if (typeof v !== 'function') throw new LinkError(named + ': function import requires a callable');
          if (v[kFunction] !== undefined) {
            const w = v[kFunction];
            if (w.params() !== d.params || w.results() !== d.results) throw new LinkError(named + ': imported function does not match the expected type');
            resolved.push(w);
          } else {
            if (!d.numeric) throw new LinkError(named + ': cellgate passes only numbers between JavaScript and WebAssembly (externref, funcref and v128 are not supported)');
            resolved.push(importedFunction(v, types(d.params), types(d.results)));
          }
          break;
        case 'memory':
          if (!(v instanceof Memory)) throw new LinkError(named + ': memory import must be a WebAssembly.Memory object');
          resolved.push(v[kHandle]);
          break;
        case 'table':
          if (!(v instanceof Table)) throw new LinkError(named + ': table import requires a WebAssembly.Table');
          resolved.push(v[kHandle]);
          break;
        case 'global':
          if (v instanceof Global) {
            if (v[kHandle].type() !== d.type || v[kHandle].mutable() !== d.mutable) throw new LinkError(named + ': imported global does not match the expected ' + (v[kHandle].type() !== d.type ? 'type' : 'mutability'));
            resolved.push(v[kHandle]);
          } else if (d.mutable) {
            throw new LinkError(named + ': imported mutable global must be a WebAssembly.Global object');
          } else if (d.type === 'i64' ? typeof v === 'bigint' : typeof v === 'number') {
            resolved.push(toWasm(d.type, v));
          } else {
            throw new LinkError(named + ': global import must be a ' + (d.type === 'i64' ? 'BigInt' : 'number') + ', valid Wasm reference, or WebAssembly.Global object');
          }
          break;
        default:
          throw new LinkError(named + ': ' + d.kind + ' imports are not supported by cellgate');
      }
    }
    const inst = handle.instantiate(resolved);
    if (isFailure(inst)) raise(inst);
    const exports = Object.create(null);
    const descs = JSON.parse(handle.exports());
    for (let i = 0; i < descs.length; i++) {
      const d = descs[i];
      let value;
      switch (d.kind) {
        case 'function': value = exportedFunction(inst.function(i)); break;
        case 'memory': value = memoryFor(inst.memory(i)); break;
        case 'table': value = tableFor(inst.table(i)); break;
        case 'global': value = globalFor(inst.global(i)); break;
        default: value = undefined;
      }
      exports[d.name] = value;
    }
    return Object.freeze(exports);
  }

  class Instance {
    constructor(module, importObject) {
      if (new.target === undefined) throw new TypeError("WebAssembly.Instance must be invoked with 'new'");
      if (!(module instanceof Module) || module[kHandle] === undefined) throw new TypeError('WebAssembly.Instance(): Argument 0 must be a WebAssembly.Module');
      Object.defineProperty(this, kExports, { value: instantiate(module, importObject, 'WebAssembly.Instance()') });
    }
    get exports() { return this[kExports]; }
  }
  function newInstance(module, importObject, api) {
    const i = Object.create(Instance.prototype);
    Object.defineProperty(i, kExports, { value: instantiate(module, importObject, api) });
    return i;
  }
  Object.defineProperty(Instance.prototype, Symbol.toStringTag, { value: 'WebAssembly.Instance', configurable: true });

  // ---- Memory ----

  // One JS object per Java memory (kept on the Java side: host objects cannot be WeakMap keys),
  // so an imported memory that is exported again is the same object.
  function memoryFor(h) {
    let m = h.jsObject();
    if (m === null || m === undefined) {
      m = Object.create(Memory.prototype);
      Object.defineProperty(m, kHandle, { value: h });
      h.jsObject(m);
    }
    return m;
  }
  function limit(d, name, api) {
    const v = d[name];
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0 || n > 65536) throw new TypeError(api + ": Property '" + name + "': value " + String(v) + ' is above the upper bound 65536');
    return Math.floor(n);
  }
  class Memory {
    constructor(descriptor) {
      if (new.target === undefined) throw new TypeError("WebAssembly.Memory must be invoked with 'new'");
      if (descriptor === null || typeof descriptor !== 'object') throw new TypeError('WebAssembly.Memory(): Argument 0 must be a memory descriptor');
      const initial = limit(descriptor, 'initial', 'WebAssembly.Memory()');
      if (initial === undefined) throw new TypeError("WebAssembly.Memory(): Property 'initial' is required");
      const maximum = limit(descriptor, 'maximum', 'WebAssembly.Memory()');
      if (maximum !== undefined && maximum < initial) throw new RangeError("WebAssembly.Memory(): Property 'maximum': value " + maximum + ' is below the lower bound ' + initial);
      if (descriptor.shared) throw new TypeError('WebAssembly.Memory(): shared memory is not supported by cellgate');
      const h = engine.memory(initial, maximum === undefined ? -1 : maximum);
      Object.defineProperty(this, kHandle, { value: h });
      h.jsObject(this);
    }
    get buffer() {
      const h = this[kHandle];
      const gen = h.generation();
      if (this[kBuffer] === undefined || this[kGeneration] !== gen) {
        // GraalJS views the Java bytes in place: Wasm writes are seen here and ours there.
        const ab = new ArrayBuffer(h.buffer());
        Object.defineProperty(this, kBuffer, { value: ab, writable: true, configurable: true });
        Object.defineProperty(this, kGeneration, { value: gen, writable: true, configurable: true });
        noteMemoryBuffer(ab);
      }
      return this[kBuffer];
    }
    grow(delta) {
      const n = Number(delta);
      if (!Number.isFinite(n) || n < 0) throw new TypeError("WebAssembly.Memory.grow(): Argument 0 must be convertible to a valid number");
      const old = this[kHandle].growBy(Math.floor(n));
      if (old < 0) throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
      return old;
    }
  }
  Object.defineProperty(Memory.prototype, Symbol.toStringTag, { value: 'WebAssembly.Memory', configurable: true });

  // A grown memory's old ArrayBuffer reads byteLength 0 (host/wasm/LinearMemory.java), but GraalJS
  // fixes a view's length when the view is made. Once a context has seen a memory buffer, views of a
  // buffer that reads empty report length 0, as views of a detached buffer do (wasm-bindgen and
  // Emscripten check exactly that to refresh their views after memory.grow).
  let patched = false;
  function noteMemoryBuffer() {
    if (patched) return;
    patched = true;
    const TypedArray = Object.getPrototypeOf(Uint8Array);
    for (const [proto, names] of [[TypedArray.prototype, ['length', 'byteLength', 'byteOffset']], [DataView.prototype, ['byteLength', 'byteOffset']]]) {
      for (const name of names) {
        const desc = Object.getOwnPropertyDescriptor(proto, name);
        const get = desc.get;
        Object.defineProperty(proto, name, {
          get() {
            const buf = this.buffer;
            return buf.byteLength === 0 ? 0 : get.call(this);
          },
          configurable: true, enumerable: false,
        });
      }
    }
  }

  // ---- Table ----

  function tableFor(h) {
    const t = Object.create(Table.prototype);
    Object.defineProperty(t, kHandle, { value: h });
    return t;
  }
  class Table {
    constructor(descriptor, value) {
      if (new.target === undefined) throw new TypeError("WebAssembly.Table must be invoked with 'new'");
      if (descriptor === null || typeof descriptor !== 'object') throw new TypeError('WebAssembly.Table(): Argument 0 must be a table descriptor');
      const element = String(descriptor.element);
      if (element !== 'anyfunc' && element !== 'funcref') {
        if (element === 'externref') throw new TypeError('WebAssembly.Table(): externref tables are not supported by cellgate');
        throw new TypeError("WebAssembly.Table(): Descriptor property 'element' must be a WebAssembly reference type");
      }
      const initial = limit(descriptor, 'initial', 'WebAssembly.Table()');
      if (initial === undefined) throw new TypeError("WebAssembly.Table(): Property 'initial' is required");
      const maximum = limit(descriptor, 'maximum', 'WebAssembly.Table()');
      const h = engine.table(initial, maximum === undefined ? -1 : maximum);
      Object.defineProperty(this, kHandle, { value: h });
      if (value !== undefined && value !== null) for (let i = 0; i < initial; i++) this.set(i, value);
    }
    get length() { return this[kHandle].length(); }
    get(index) {
      const r = this[kHandle].get(index >>> 0);
      if (isFailure(r)) raise(r);
      if (r === null) return null;
      return exportedFunction(r);
    }
    set(index, value) {
      let fn = null;
      if (value !== null && value !== undefined) {
        if (typeof value !== 'function' || value[kFunction] === undefined) throw new TypeError('WebAssembly.Table.set(): Argument 1 is invalid for table: function-typed object expected');
        fn = value[kFunction];
      }
      const r = this[kHandle].set(index >>> 0, fn);
      if (isFailure(r)) raise(r);
    }
    grow(delta, value) {
      const fn = value === undefined || value === null ? null : value[kFunction];
      const old = this[kHandle].grow(Number(delta) >>> 0, fn === undefined ? null : fn);
      if (old < 0) throw new RangeError('WebAssembly.Table.grow(): failed to grow table by ' + delta);
      return old;
    }
  }
  Object.defineProperty(Table.prototype, Symbol.toStringTag, { value: 'WebAssembly.Table', configurable: true });

  // ---- Global ----

  function globalFor(h) {
    const g = Object.create(Global.prototype);
    Object.defineProperty(g, kHandle, { value: h });
    return g;
  }
  class Global {
    constructor(descriptor, value) {
      if (new.target === undefined) throw new TypeError("WebAssembly.Global must be invoked with 'new'");
      if (descriptor === null || typeof descriptor !== 'object') throw new TypeError('WebAssembly.Global(): Argument 0 must be a global descriptor');
      const type = String(descriptor.value);
      if (!['i32', 'i64', 'f32', 'f64'].includes(type)) {
        if (['externref', 'anyfunc', 'funcref'].includes(type)) throw new TypeError('WebAssembly.Global(): ' + type + ' globals are not supported by cellgate');
        throw new TypeError("WebAssembly.Global(): Descriptor property 'value' must be a WebAssembly type");
      }
      const v = value === undefined ? (type === 'i64' ? 0n : 0) : toWasm(type, value);
      const h = engine.global(type, Boolean(descriptor.mutable), v);
      Object.defineProperty(this, kHandle, { value: h });
    }
    get value() {
      const h = this[kHandle];
      return fromWasm(h.type(), h.get());
    }
    set value(v) {
      const h = this[kHandle];
      if (!h.mutable()) throw new TypeError("set WebAssembly.Global.value): Can't set the value of an immutable global."); // V8's text, as is
      h.set(toWasm(h.type(), v));
    }
    valueOf() { return this.value; }
  }
  Object.defineProperty(Global.prototype, Symbol.toStringTag, { value: 'WebAssembly.Global', configurable: true });

  // ---- the namespace ----

  function unsupported(name) {
    return function () { throw internal.unsupported('WebAssembly.' + name); };
  }
  const WebAssembly = {
    Module, Instance, Memory, Table, Global, CompileError, LinkError, RuntimeError,
    Tag: unsupported('Tag'),
    Exception: unsupported('Exception'),
    compile() {
      return Promise.reject(new CompileError('WebAssembly.compile(): ' + DISALLOWED));
    },
    instantiate(source, importObject) {
      try {
        if (source instanceof Module && source[kHandle] !== undefined) {
          return Promise.resolve(newInstance(source, importObject, 'WebAssembly.instantiate()'));
        }
        if (ArrayBuffer.isView(source) || source instanceof ArrayBuffer) {
          return Promise.reject(new CompileError('WebAssembly.instantiate(): ' + DISALLOWED));
        }
        return Promise.reject(new TypeError('WebAssembly.instantiate(): Argument 0 must be a buffer source'));
      } catch (e) {
        return Promise.reject(e);
      }
    },
    validate(bytes) {
      if (!(ArrayBuffer.isView(bytes) || bytes instanceof ArrayBuffer)) throw new TypeError('WebAssembly.validate(): Argument 0 must be a buffer source');
      const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return engine.validate(view.slice().buffer); // a copy: the host reads an ArrayBuffer's bytes, not a view's
    },
  };
  Object.defineProperty(WebAssembly, Symbol.toStringTag, { value: 'WebAssembly', configurable: true });
  for (const k of Object.keys(WebAssembly)) Object.defineProperty(WebAssembly, k, { enumerable: false });
  internal.defineGlobal('WebAssembly', WebAssembly);
});
