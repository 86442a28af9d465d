exports.a = 1;
const b = require('./cyc2.cjs');
exports.seenByB = b.seenA;
exports.done = true;
