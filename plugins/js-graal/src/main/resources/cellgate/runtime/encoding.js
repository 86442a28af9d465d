// atob/btoa (forgiving base64, as in the HTML standard). TextEncoder/TextDecoder come from
// GraalJS itself (js.text-encoding=true).
(function (host, internal) {
  'use strict';
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const LOOKUP = new Int16Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

  function btoa(data) {
    if (arguments.length === 0) throw new TypeError("Failed to execute 'btoa': 1 argument required, but only 0 present.");
    const s = String(data);
    let out = '';
    for (let i = 0; i < s.length; i += 3) {
      const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
      if (a > 255 || b > 255 || c > 255) {
        throw new DOMException('Invalid character', 'InvalidCharacterError');
      }
      const n = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] +
        (i + 1 < s.length ? ALPHABET[(n >> 6) & 63] : '=') + (i + 2 < s.length ? ALPHABET[n & 63] : '=');
    }
    return out;
  }

  function atob(data) {
    if (arguments.length === 0) throw new TypeError("Failed to execute 'atob': 1 argument required, but only 0 present.");
    let s = String(data).replace(/[\t\n\f\r ]/g, '');
    if (s.length % 4 === 0) s = s.replace(/==?$/, '');
    if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) {
      throw new DOMException('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
    }
    let out = '';
    let buffer = 0, bits = 0;
    for (let i = 0; i < s.length; i++) {
      buffer = (buffer << 6) | LOOKUP[s.charCodeAt(i)];
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out += String.fromCharCode((buffer >> bits) & 255);
      }
    }
    return out;
  }

  internal.defineGlobal('btoa', btoa);
  internal.defineGlobal('atob', atob);
  if (typeof TextEncoder !== 'function' || typeof TextDecoder !== 'function') {
    throw new Error('GraalJS was started without js.text-encoding: TextEncoder/TextDecoder are missing');
  }
  internal.encoder = new TextEncoder();
  internal.decoder = new TextDecoder();
});
