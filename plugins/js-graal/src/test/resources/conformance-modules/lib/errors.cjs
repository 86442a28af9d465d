function tryRequire(spec) { try { require(spec); return 'no error'; } catch (e) { return e.name + ': ' + e.message; } }
module.exports = { missing: tryRequire('./nope.js'), bare: tryRequire('lodash'), noExt: tryRequire('./leaf'),
  up: tryRequire('../../outside.js'), abs: tryRequire('/lib/leaf.cjs') };
