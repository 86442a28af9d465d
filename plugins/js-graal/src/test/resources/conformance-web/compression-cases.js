// CompressionStream / DecompressionStream and TextEncoderStream / TextDecoderStream cases of the
// conformance-web fixture: output bytes are compared as they are (workerd's zlib and the JDK's give
// the same bytes at the default level).
import { errOf, hex, cat, enc, dec, through, tag } from './util.js';

const FORMATS = ['gzip', 'deflate', 'deflate-raw'];
const pseudoRandom = (n) => { const b = new Uint8Array(n); let x = 7; for (let i = 0; i < n; i++) { x = (x * 1103515245 + 12345) >>> 0; b[i] = x >>> 24; } return b; };

export const compressionCases = {
  'compress-bytes': async () => {
    const out = {};
    for (const f of FORMATS) {
      const chunks = await through(new CompressionStream(f), [enc.encode('hello '), enc.encode('hello hello hello')]);
      out[f] = [chunks.length, chunks.map((c) => c.constructor.name), hex(cat(chunks)), hex(cat(await through(new CompressionStream(f), [])))];
    }
    return out;
  },
  // (incompressible input: zlib builds differ by a byte or two here, so sizes are not compared)
  'compress-large': async () => {
    const out = {};
    const data = pseudoRandom(50000);
    for (const f of FORMATS) {
      const packed = await through(new CompressionStream(f), [data.subarray(0, 1000), data.subarray(1000)]);
      const all = cat(packed);
      const unpacked = cat(await through(new DecompressionStream(f), [all.subarray(0, 7), all.subarray(7, 5000), all.subarray(5000)]));
      out[f] = [packed.length, Math.abs(all.byteLength - 50000) < 100, hex(unpacked) === hex(data)];
    }
    return out;
  },
  'decompress-chunking': async () => {
    const big = new Uint8Array(30000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251;
    const out = {};
    for (const f of FORMATS) {
      const packed = cat(await through(new CompressionStream(f), [big]));
      const whole = await through(new DecompressionStream(f), [packed]);
      const split = await through(new DecompressionStream(f), [packed.subarray(0, 3), packed.subarray(3, 300), packed.subarray(300)]);
      out[f] = [hex(packed), whole.map((c) => c.byteLength), split.map((c) => c.byteLength)];
    }
    return out;
  },
  'decompress-errors': async () => {
    const out = {};
    for (const f of FORMATS) {
      const packed = cat(await through(new CompressionStream(f), [enc.encode('hello world hello world')]));
      out[f] = {
        corrupt: await errOf(() => through(new DecompressionStream(f), [enc.encode('not compressed at all')])),
        truncated: await errOf(() => through(new DecompressionStream(f), [packed.subarray(0, packed.byteLength - 3)])),
        trailing: await errOf(() => through(new DecompressionStream(f), [cat([packed, enc.encode('junk')])])),
        empty: await errOf(() => through(new DecompressionStream(f), [])),
      };
    }
    return out;
  },
  'compression-arguments': () => ({
    badFormat: errOf(() => new CompressionStream('br')),
    upper: errOf(() => new DecompressionStream('GZIP')),
    none: errOf(() => new CompressionStream()),
    noneD: errOf(() => new DecompressionStream()),
    ok: FORMATS.map((f) => [tag(new CompressionStream(f)), tag(new DecompressionStream(f))]),
    proto: [new CompressionStream('gzip') instanceof TransformStream, Object.getPrototypeOf(DecompressionStream.prototype) === TransformStream.prototype],
  }),
  'compression-chunk-types': async () => ({
    string: await errOf(async () => hex(cat(await through(new CompressionStream('deflate-raw'), ['abc'])))),
    arrayBuffer: await errOf(async () => hex(cat(await through(new CompressionStream('deflate-raw'), [new Uint8Array([97, 98]).buffer])))),
    dataView: await errOf(async () => hex(cat(await through(new CompressionStream('deflate-raw'), [new DataView(new Uint8Array([97]).buffer)])))),
    object: await errOf(() => through(new CompressionStream('gzip'), [{}])),
  }),
  'compression-streams': async () => {
    const piped = new Response('hello world').body.pipeThrough(new CompressionStream('gzip')).pipeThrough(new DecompressionStream('gzip'));
    const c = new CompressionStream('gzip');
    const w = c.writable.getWriter();
    const desired = [w.desiredSize];
    w.write(new Uint8Array(100));
    desired.push(w.desiredSize);
    const ds = new DecompressionStream('deflate-raw');
    const dw = ds.writable.getWriter();
    dw.write(new Uint8Array([0x4b, 0x4c, 0x4a, 0x06, 0x00]));
    dw.close();
    const byob = await ds.readable.getReader({ mode: 'byob' }).read(new Uint8Array(2));
    return { piped: await new Response(piped).text(), desired, byob: [...byob.value], readable: tag(c.readable) };
  },
  'compression-response': () => new Response(new Response('compressed on the way out').body.pipeThrough(new CompressionStream('gzip')),
    { headers: { 'content-type': 'application/x-gzip' } }),
  'compression-request-body': async (req) => {
    const text = await new Response(req.body.pipeThrough(new CompressionStream('deflate')).pipeThrough(new DecompressionStream('deflate'))).text();
    return [text.length, text.slice(0, 20)];
  },
  'text-encoder-stream': async () => {
    const chunks = await through(new TextEncoderStream(), ['a', '\u00e9', '\ud83d', '\ude00', '', 'z\ud83d']);
    const t = new TextEncoderStream();
    const w = t.writable.getWriter();
    const desired = [w.desiredSize];
    w.write('abc');
    desired.push(w.desiredSize);
    return { chunks: chunks.map((c) => [c.constructor.name, [...c]]), nonStrings: (await through(new TextEncoderStream(), [5, null, { toString() { return 'o'; } }])).map((c) => [...c]),
      encoding: t.encoding, tag: tag(t), desired, protos: Object.getOwnPropertyNames(TextEncoderStream.prototype).sort() };
  },
  'text-decoder-stream': async () => ({
    split: await through(new TextDecoderStream(), [new Uint8Array([0x61, 0xc3]), new Uint8Array([0xa9, 0xf0, 0x9f]), new Uint8Array([0x98, 0x80]), new Uint8Array([0xf0])]),
    bom: await through(new TextDecoderStream(), [new Uint8Array([0xef, 0xbb, 0xbf, 0x61])]),
    keepBom: await through(new TextDecoderStream('utf-8', { ignoreBOM: true }), [new Uint8Array([0xef, 0xbb, 0xbf, 0x61])]),
    buffers: await through(new TextDecoderStream(), [new Uint8Array([0x61]).buffer, new DataView(new Uint8Array([0x62]).buffer), new Uint8Array(0)]),
    utf16: await errOf(async () => { const t = new TextDecoderStream('utf-16le'); return [t.encoding, await through(t, [new Uint8Array([0x61, 0]), new Uint8Array([0x62])])]; }),
    props: (() => { const t = new TextDecoderStream('UTF8', { fatal: true }); return [t.encoding, t.fatal, t.ignoreBOM, tag(t), Object.getOwnPropertyNames(TextDecoderStream.prototype).sort()]; })(),
  }),
  'text-decoder-stream-errors': async () => ({
    fatal: await errOf(() => through(new TextDecoderStream('utf-8', { fatal: true }), [new Uint8Array([0x61, 0xff])])),
    fatalAtEnd: await errOf(() => through(new TextDecoderStream('utf-8', { fatal: true }), [new Uint8Array([0x61, 0xc3])])),
    badLabel: errOf(() => new TextDecoderStream('nope')),
    string: await errOf(() => through(new TextDecoderStream(), ['abc'])),
  }),
  'text-streams-pipe': async () => {
    const s = new Response('h\u00e9llo w\u00f6rld').body.pipeThrough(new TextDecoderStream()).pipeThrough(new TransformStream({
      transform(chunk, c) { c.enqueue(chunk.toUpperCase()); },
    })).pipeThrough(new TextEncoderStream());
    return new Response(s).text();
  },
};
