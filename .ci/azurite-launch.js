// Runs Azurite's blob service (azurite-blob) with a longer interval between its extent GC passes.
//
//   node .ci/azurite-launch.js <azurite package dir> [azurite-blob options...]
//   AZURITE_GC_INTERVAL_MS  time between two mark-and-sweep passes (Azurite's own: 10 minutes)
//
// Why: Azurite sweeps every blob and extent on its one event loop every 10 minutes and answers
// nothing meanwhile. Late in a CI run the store holds every test's blobs, and on this 2-core box a
// pass took ~50 s: CI run ci1 of 2026-12-03 saw S3Proxy get no answer from 09:53:58 to 09:54:48,
// exactly 10 minutes after Azurite started, and FleetIT's surviving node fenced itself (6 s lease).
// Azurite has no option for the interval; it reads the default from its constants module when it
// builds its GC manager, so setting that value before loading its main module is enough. The test
// buckets live for one run, so memory freed later (or never) is the price.
'use strict';
const path = require('path');
const [, , root, ...args] = process.argv;
if (!root) {
  console.error('usage: node azurite-launch.js <azurite package dir> [options...]');
  process.exit(2);
}
const interval = Number(process.env.AZURITE_GC_INTERVAL_MS || 6 * 60 * 60 * 1000);
// setTimeout clamps delays above 2^31-1 ms to 1 ms: a "never" would sweep without pause.
if (!Number.isInteger(interval) || interval < 1000 || interval > 2 ** 31 - 1) {
  console.error(`AZURITE_GC_INTERVAL_MS must be a whole number of ms from 1000 to ${2 ** 31 - 1}, not ${process.env.AZURITE_GC_INTERVAL_MS}`);
  process.exit(2);
}
const constants = require(path.join(root, 'dist/src/blob/utils/constants.js'));
if (typeof constants.DEFAULT_GC_INTERVAL_MS !== 'number') {
  console.error(`this Azurite has no DEFAULT_GC_INTERVAL_MS in its constants (${root}): update .ci/azurite-launch.js`);
  process.exit(2);
}
constants.DEFAULT_GC_INTERVAL_MS = interval;
const main = path.join(root, 'dist/src/blob/main.js');
process.argv = [process.argv[0], main, ...args];
console.log(`azurite-launch: extent GC every ${interval} ms`);
require(main);
