// A CommonJS module (typed by the rules in ../cases.json) that require()s Node built-ins, as npm
// packages pushed without bundling do. Each export answers one probe, or the error it threw.
const probe = (f) => { try { return f(); } catch (e) { return [e.name, e.message]; } };
module.exports = {
  prefixed: () => probe(() => require('node:buffer').Buffer.from('hi').toString('hex')),
  bare: () => probe(() => require('buffer').Buffer.from('hi').toString('base64')),
  barePath: () => probe(() => require('path').basename('/a/b.txt')),
  sameModule: () => probe(() => require('buffer') === require('node:buffer') && require('node:events') === require('events')),
  eventsIsEmitter: () => probe(() => require('node:events') === require('node:events').EventEmitter),
  absent: () => probe(() => typeof require('node:child_process')),
  bareAbsent: () => probe(() => typeof require('child_process')),
  unknown: () => probe(() => typeof require('node:nothing')),
  relative: () => probe(() => typeof require('./buffer')),
};
