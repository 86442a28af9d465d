// node:stream and node:stream/promises: `readable-stream` (the Node streams of Node 18, kept by the
// Node.js streams working group), plus getDefaultHighWaterMark/setDefaultHighWaterMark and
// duplexPair as workerd has them.
import Stream from 'readable-stream/lib/ours/browser.js';
import { notImplemented } from '../errors.js';

let highWaterMark = 16384;
let objectHighWaterMark = 16;
Stream.getDefaultHighWaterMark = (objectMode) => (objectMode ? objectHighWaterMark : highWaterMark);
Stream.setDefaultHighWaterMark = (objectMode, value) => {
  if (objectMode) objectHighWaterMark = value;
  else highWaterMark = value;
};
if (Stream.isDestroyed === undefined) Stream.isDestroyed = (s) => !!(s && (s.destroyed || (s._readableState && s._readableState.destroyed)));
if (Stream.isWritable === undefined) Stream.isWritable = (s) => !!(s && s.writable && !s.destroyed && !s.writableEnded);
Stream.duplexPair = notImplemented('stream.duplexPair');

export const promises = Stream.promises;
export default Stream;
