// Helpers of the HTMLRewriter conformance cases.
const enc = new TextEncoder();
export function streamOf(chunks) {
  return new ReadableStream({
    start(c) {
      for (const x of chunks) c.enqueue(typeof x === 'string' ? enc.encode(x) : new Uint8Array(x));
      c.close();
    },
  });
}
export const html = (chunks) => new Response(streamOf(chunks), { headers: { 'content-type': 'text/html' } });
export function err(x) {
  return x && x.constructor ? x.constructor.name + ': ' + x.message : String(x);
}
export function tryAll(log, probes) {
  for (const [name, f] of probes) {
    try {
      const v = f();
      log.push([name, 'ok', v === undefined ? null : typeof v === 'object' ? Object.prototype.toString.call(v) : v]);
    } catch (x) {
      log.push([name, err(x)]);
    }
  }
}
