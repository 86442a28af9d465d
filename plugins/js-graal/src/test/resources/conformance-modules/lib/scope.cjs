module.exports = [__filename, __dirname, module.path, this === globalThis, arguments.length, typeof require, require.length,
  Object.keys(module).join('+'), (function () { return this === undefined; })()].join(' | ');
