exports.seenA = JSON.stringify(require('./cyc1.cjs'));
