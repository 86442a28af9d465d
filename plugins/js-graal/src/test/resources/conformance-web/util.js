// Helpers shared by the case modules of the conformance-web fixture.
export const tick = () => new Promise((r) => setTimeout(r, 0));
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// What a call gives: 'ok:<json>' or '<ErrorName>: <message>' (for a thrown string: 'undefined: <string>').
export function errOf(fn) {
  const show = (v) => 'ok:' + (typeof v === 'string' ? v : JSON.stringify(v));
  const fail = (e) => (e && e.name) + ': ' + (e && e.message !== undefined ? e.message : String(e));
  try {
    const v = fn();
    if (v && typeof v.then === 'function') return v.then(show, fail);
    return show(v);
  } catch (e) { return fail(e); }
}
export const hex = (u) => [...new Uint8Array(u.buffer || u, u.byteOffset || 0, u.byteLength)].map((b) => b.toString(16).padStart(2, '0')).join('');
export const cat = (arr) => {
  const out = new Uint8Array(arr.reduce((n, a) => n + a.byteLength, 0));
  let i = 0;
  for (const a of arr) { out.set(a, i); i += a.byteLength; }
  return out;
};
export const enc = new TextEncoder();
export const dec = new TextDecoder();
// Writes `chunks` through a transform and reads everything out: the chunks read.
export async function through(ts, chunks) {
  const w = ts.writable.getWriter();
  const reading = (async () => { const r = ts.readable.getReader(); const got = []; for (;;) { const { done, value } = await r.read(); if (done) return got; got.push(value); } })();
  for (const c of chunks) await w.write(c);
  await w.close();
  return reading;
}
export const tag = (v) => Object.prototype.toString.call(v);
