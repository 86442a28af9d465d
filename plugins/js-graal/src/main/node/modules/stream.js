// node:stream and node:stream/promises: `readable-stream` (the Node streams of Node 18, kept by the
// Node.js streams working group), plus getDefaultHighWaterMark/setDefaultHighWaterMark and
// duplexPair as workerd has them.
import Stream from 'readable-stream/lib/ours/browser.js';
import { getDefaultHighWaterMark, setDefaultHighWaterMark } from 'readable-stream/lib/internal/streams/state.js';
import { notImplemented } from '../errors.js';

// Node 22 (workerd's) buffers 64 KiB by default; readable-stream still has Node 18's 16 KiB.
setDefaultHighWaterMark(false, 65536);
Stream.getDefaultHighWaterMark = getDefaultHighWaterMark;
Stream.setDefaultHighWaterMark = setDefaultHighWaterMark;
if (Stream.isDestroyed === undefined) Stream.isDestroyed = (s) => !!(s && (s.destroyed || (s._readableState && s._readableState.destroyed)));
if (Stream.isWritable === undefined) Stream.isWritable = (s) => !!(s && s.writable && !s.destroyed && !s.writableEnded);
Stream.duplexPair = notImplemented('stream.duplexPair');

export const promises = Stream.promises;
export default Stream;
