// CommonJS (by the suite's rules): exports, require of every module type.
exports.kind = 'cjs';
exports.text = require('../data/hello.txt');
exports.dataBytes = new Uint8Array(require('../data/blob.bin')).join(',');
exports.esmDefault = require('./esm.js');
exports.esmNoDefault = String(require('./named-only.js'));
exports.sameObject = require('./leaf.cjs') === require('./leaf.cjs');
exports.leaf = require('./leaf.cjs').leaf;
exports.wasmIsModule = require('../wasm/calc.wasm') instanceof WebAssembly.Module;
