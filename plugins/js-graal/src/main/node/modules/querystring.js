// node:querystring: `querystring-es3` (Node's querystring for every engine) with Node's escape,
// unescape and unescapeBuffer.
import * as qs from 'querystring-es3/index.js';
import { Buffer } from './buffer.js';

const querystring = {
  parse: qs.parse, decode: qs.parse, stringify: qs.stringify, encode: qs.stringify,
  escape: (s) => encodeURIComponent(String(s)).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()),
  unescape: (s) => {
    try { return decodeURIComponent(s); } catch { return querystring.unescapeBuffer(s).toString(); }
  },
  unescapeBuffer(s) {
    const str = String(s);
    const out = [];
    for (let i = 0; i < str.length; i++) {
      const c = str.charCodeAt(i);
      if (c === 0x25 && i + 2 < str.length + 0 && /^[0-9a-fA-F]{2}$/.test(str.substr(i + 1, 2))) {
        out.push(parseInt(str.substr(i + 1, 2), 16));
        i += 2;
      } else {
        out.push(...Buffer.from(str[i]));
      }
    }
    return Buffer.from(out);
  },
};
export default querystring;
