// node:stream/consumers: read a Node or Web stream (any async iterable of chunks) to the end.
import { Buffer } from './buffer.js';

async function chunks(stream) {
  const out = [];
  const iterable = stream && typeof stream[Symbol.asyncIterator] === 'function' ? stream
    : stream && typeof stream.getReader === 'function' ? readerIterable(stream) : stream;
  for await (const c of iterable) out.push(typeof c === 'string' ? Buffer.from(c) : Buffer.from(c.buffer ? new Uint8Array(c.buffer, c.byteOffset, c.byteLength) : c));
  return Buffer.concat(out);
}

async function* readerIterable(stream) {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

const consumers = {
  buffer: (s) => chunks(s),
  arrayBuffer: async (s) => { const b = await chunks(s); return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength); },
  text: async (s) => new TextDecoder().decode(await chunks(s)),
  json: async (s) => JSON.parse(new TextDecoder().decode(await chunks(s))),
  blob: async (s) => new Blob([await chunks(s)]),
};
export default consumers;
