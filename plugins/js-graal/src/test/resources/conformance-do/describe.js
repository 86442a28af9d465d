// Helpers of the Durable Object fixture: a JSON description of any value (so that a value's
// type survives the comparison: a Date, a Map or -0 must come back as such), and the outcome of
// an operation that may throw.

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function describe(v) {
  if (v === undefined) return 'undefined';
  if (v === null) return null;
  switch (typeof v) {
    case 'number':
      if (Object.is(v, -0)) return '-0';
      return Number.isFinite(v) ? v : String(v);
    case 'bigint': return v + 'n';
    case 'string': case 'boolean': return v;
    case 'function': return 'function';
    case 'symbol': return 'symbol';
  }
  if (v instanceof Date) return { Date: v.getTime() };
  if (v instanceof RegExp) return { RegExp: String(v) };
  if (v instanceof Map) return { Map: [...v].map(([k, x]) => [describe(k), describe(x)]) };
  if (v instanceof Set) return { Set: [...v].map(describe) };
  if (v instanceof ArrayBuffer) return { ArrayBuffer: [...new Uint8Array(v)] };
  if (v instanceof DataView) return { DataView: [v.byteOffset, v.byteLength, v.buffer.byteLength, v.getUint8(0)] };
  if (ArrayBuffer.isView(v)) return { [v.constructor.name]: Array.from(v, describe), offset: v.byteOffset, buffer: v.buffer.byteLength };
  if (v instanceof Error) {
    return { Error: [Object.prototype.toString.call(v), v.constructor.name, v.name, v.message, 'cause' in v ? describe(v.cause) : 'no cause'] };
  }
  if (v instanceof Number || v instanceof String || v instanceof Boolean) return { boxed: describe(v.valueOf()) };
  if (Array.isArray(v)) return Array.from(v, describe);
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k] = describe(x);
  if (Object.getPrototypeOf(v) !== Object.prototype) out['[prototype]'] = 'not Object.prototype';
  return out;
}

/** ['ok', description] or ['error', name, message]. */
export async function attempt(fn) {
  try {
    return ['ok', describe(await fn())];
  } catch (e) {
    return ['error', e?.name, e?.message];
  }
}

/** Like attempt, but keeps only the message's first clause: SQLite's details differ by version. */
export async function attemptShort(fn) {
  const r = await attempt(fn);
  if (r[0] === 'error' && typeof r[2] === 'string') r[2] = r[2].split(':')[0];
  return r;
}

export const keys = (map) => [...map.keys()];
