// The WebCrypto conformance fixture: the same bundle runs on workerd (miniflare) and on cellgate,
// and WebCryptoConformanceTest compares the answers. GET /case/<name> runs the probes of CASES[name]
// and answers one JSON line per probe: ["ok", value] or [error class, error name, message].
// Keys come from keys.js (made once with Node's WebCrypto; see there) and from RFC test vectors.
// Randomized outputs (ECDSA/PSS/OAEP signatures and ciphertexts, generated keys) are never
// compared byte for byte: probes verify fixed vectors, or report lengths and key structure.
import { KEYS } from './keys.js';

const s = crypto.subtle;
const enc = new TextEncoder();
const u8 = (a) => new Uint8Array(a);
const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
const unhex = (h) => new Uint8Array(h.match(/../g).map((x) => parseInt(x, 16)));
const imp = (f, hx, alg, ext, us) => s.importKey(f, unhex(hx), alg, ext, us);

function showAlg(a) {
  const o = {};
  for (const k in a) {
    const x = a[k];
    o[k] = (x instanceof ArrayBuffer || ArrayBuffer.isView(x)) ? (x.constructor.name + ':' + hex(x instanceof ArrayBuffer ? x : x.buffer)) : x;
  }
  return o;
}
function show(v) {
  if (v instanceof ArrayBuffer) return 'AB:' + hex(v);
  if (ArrayBuffer.isView(v)) return v.constructor.name + ':' + hex(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
  if (v instanceof CryptoKey) return { type: v.type, ext: v.extractable, alg: showAlg(v.algorithm), usages: v.usages };
  if (v && typeof v === 'object' && 'publicKey' in v) return { pub: show(v.publicKey), priv: show(v.privateKey) };
  if (typeof v === 'bigint') return v + 'n';
  if (Array.isArray(v)) return v.map(show);
  return v;
}
async function probe(f) {
  try {
    return ['ok', show(await f())];
  } catch (x) {
    return [x && x.constructor && x.constructor.name, x && x.name, x && x.message];
  }
}

const CASES = {
  "webidl-conversion-1": [
    ["signNotKey", async () => s.sign('HMAC', {}, u8([1]))],
    ["algNumber", async () => s.digest(5, u8([1]))],
    ["algNull", async () => s.digest(null, u8([1]))],
    ["algUndef", async () => s.digest(undefined, u8([1]))],
    ["algLower", async () => s.digest('sha-256', u8([]))],
    ["importStrData", async () => s.importKey('raw', 'abc', {name:'HMAC',hash:'SHA-256'}, true, ['sign'])],
  ],
  "webidl-conversion-2": [
    ["importRawJwkObj", async () => s.importKey('raw', {kty:'oct'}, {name:'HMAC',hash:'SHA-256'}, true, ['sign'])],
    ["importJwkBuf", async () => s.importKey('jwk', u8([1,2]), {name:'HMAC',hash:'SHA-256'}, true, ['sign'])],
    ["usagesNotArray", async () => s.importKey('raw', u8([1,2]), {name:'HMAC',hash:'SHA-256'}, true, 'sign')],
    ["usagesBogus", async () => s.importKey('raw', u8([1,2]), {name:'HMAC',hash:'SHA-256'}, true, ['bogus'])],
    ["usagesDup", async () => s.importKey('raw', u8([1,2]), {name:'HMAC',hash:'SHA-256'}, true, ['verify','sign','sign'])],
    ["extractableStr", async () => s.importKey('raw', u8([1,2]), {name:'HMAC',hash:'SHA-256'}, 'yes', ['sign'])],
  ],
  "webidl-conversion-3": [
    ["extractableUndef", async () => s.importKey('raw', u8([1,2]), {name:'HMAC',hash:'SHA-256'}, undefined, ['sign'])],
    ["lengthStr", async () => s.generateKey({name:'AES-GCM', length:'128'}, true, ['encrypt'])],
    ["lengthFloat", async () => s.generateKey({name:'AES-GCM', length:128.7}, true, ['encrypt'])],
    ["lengthObj", async () => s.generateKey({name:'AES-GCM', length:{}}, true, ['encrypt'])],
    ["lengthNull", async () => s.generateKey({name:'AES-GCM', length:null}, true, ['encrypt'])],
    ["wrongAlg", async () => s.generateKey({name:'AES-GCM', length:128}, true, ['encrypt']).then(k => s.encrypt({name:'AES-CBC', iv:u8(16)}, k, u8([1])))],
  ],
  "webidl-conversion-4": [
    ["wrongUsage", async () => s.generateKey({name:'AES-GCM', length:128}, true, ['encrypt']).then(k => s.decrypt({name:'AES-GCM', iv:u8(12)}, k, u8(16)))],
    ["algBad", async () => s.importKey('raw', u8([1,2]), {name:'FOO'}, true, ['sign'])],
    ["algBadFormatBad", async () => s.importKey('foo', u8([1,2]), {name:'FOO'}, true, ['sign'])],
    ["genEmptyObj", async () => s.generateKey({}, true, ['sign'])],
    ["genNameNum", async () => s.generateKey({name: 5}, true, ['sign'])],
    ["curveNum", async () => s.generateKey({name:'ECDSA', namedCurve: 256}, true, ['sign'])],
  ],
  "webidl-conversion-5": [
    ["curveNull", async () => s.generateKey({name:'ECDSA', namedCurve: null}, true, ['sign'])],
    ["curveLower", async () => s.generateKey({name:'ECDSA', namedCurve: 'p-256'}, true, ['sign'])],
    ["algLowerName", async () => s.generateKey({name:'aes-gcm', length: 128}, true, ['encrypt']).then(k=>[show(k)])],
    ["algLowerEd", async () => s.generateKey('ed25519', true, ['sign'])],
    ["algLowerOp", async () => s.generateKey({name:'aes-gcm', length: 128}, true, ['encrypt']).then(k=>s.encrypt({name:'Aes-Gcm', iv:u8(1)}, k, u8(1))).then(b=>b.byteLength)],
    ["publicNotKey", async () => s.importKey('raw', u8(22), 'HKDF', false, ['deriveBits']).then(k=>s.deriveBits({name:'ECDH', public: {}}, k, 8))],
  ],
  "webidl-conversion-6": [
    ["extNum", async () => s.importKey('jwk', {kty:'oct', k:'AAAAAAAAAAAAAAAAAAAAAA', ext: 0}, 'AES-GCM', true, ['encrypt'])],
    ["jwkKtyNum", async () => s.importKey('jwk', {kty: 5, k:'AAAAAAAAAAAAAAAAAAAAAA'}, 'AES-GCM', true, ['encrypt'])],
    ["jwkKNum", async () => s.importKey('jwk', {kty: 'oct', k: 5}, 'AES-GCM', true, ['encrypt'])],
    ["jwkArr", async () => s.importKey('jwk', [], 'AES-GCM', true, ['encrypt'])],
    ["jwkNull", async () => s.importKey('jwk', null, 'AES-GCM', true, ['encrypt'])],
    ["usagesNumbers", async () => s.importKey('raw', u8(16), 'AES-GCM', true, [1])],
  ],
  "webidl-conversion-7": [
    ["usagesIterable", async () => s.importKey('raw', u8(16), 'AES-GCM', true, new Set(['encrypt']))],
    ["dataDataView", async () => s.digest('SHA-1', new DataView(new ArrayBuffer(3)))],
    ["dataSAB", async () => s.digest('SHA-1', new Uint16Array([1,2]).subarray(1))],
    ["algMissingEncrypt", async () => s.importKey('raw', u8(16), 'AES-GCM', true, ['encrypt']).then(k=>s.encrypt(undefined, k, u8(1)))],
    ["encryptStrAlg", async () => s.importKey('raw', u8(16), 'AES-GCM', true, ['encrypt']).then(k=>s.encrypt('AES-GCM', k, u8(1)))],
    ["encryptHmacKey", async () => s.importKey('raw', u8(16), {name:'HMAC',hash:'SHA-1'}, true, ['sign']).then(k=>s.encrypt('HMAC', k, u8(1)))],
  ],
  "webidl-conversion-8": [
    ["cloneKey", async () => s.importKey('raw', u8(16), 'AES-GCM', true, ['encrypt']).then(k=>{ const c = structuredClone(k); return [c instanceof CryptoKey, show(c)]; })],
    ["cloneEcKey", async () => s.generateKey({name:'ECDSA', namedCurve:'P-256'}, true, ['sign']).then(k=>{ const c = structuredClone(k.privateKey); return [c instanceof CryptoKey]; })],
  ],
  "aes-gcm-1": [
    ["ivString", async () => s.generateKey({name:'AES-GCM', length:128}, true, ['encrypt']).then(k => s.encrypt({name:'AES-GCM', iv:'abc'}, k, u8([1])))],
    ["ivMissing", async () => s.generateKey({name:'AES-GCM', length:128}, true, ['encrypt']).then(k => s.encrypt({name:'AES-GCM'}, k, u8([1])))],
    ["ivEmpty", async () => s.generateKey({name:'AES-GCM', length:128}, true, ['encrypt']).then(k => s.encrypt({name:'AES-GCM', iv: u8([])}, k, u8([1])))],
    ["tagBad", async () => s.generateKey({name:'AES-GCM', length:128}, true, ['encrypt']).then(k => s.encrypt({name:'AES-GCM', iv: u8([1]), tagLength: 33}, k, u8([1])))],
    ["tag32", async () => s.importKey('raw', u8(16), 'AES-GCM', true, ['encrypt']).then(k => s.encrypt({name:'AES-GCM', iv: u8([1]), tagLength: 32}, k, u8([1])))],
    ["gcmDecShort", async () => s.importKey('raw', u8(16).fill(1), 'AES-GCM', true, ['decrypt']).then(k=>s.decrypt({name:'AES-GCM', iv:u8(12)}, k, u8(10)))],
  ],
  "aes-gcm-2": [
    ["gcmDecBad", async () => s.importKey('raw', u8(16).fill(1), 'AES-GCM', true, ['decrypt']).then(k=>s.decrypt({name:'AES-GCM', iv:u8(12)}, k, u8(20)))],
    ["gcmDecBad32", async () => s.importKey('raw', u8(16).fill(1), 'AES-GCM', true, ['decrypt']).then(k=>s.decrypt({name:'AES-GCM', iv:u8(12), tagLength:32}, k, u8(20)))],
    ["gcmEncAad", async () => s.importKey('raw', u8(32).fill(2), 'AES-GCM', true, ['encrypt']).then(k=>s.encrypt({name:'AES-GCM', iv:u8(7), additionalData: enc.encode('aad'), tagLength: 96}, k, enc.encode('plain text')))],
    ["gcmRound64", async () => s.importKey('raw', u8(24).fill(3), 'AES-GCM', true, ['encrypt','decrypt']).then(async k=>{const c = await s.encrypt({name:'AES-GCM', iv:u8(12), tagLength:64}, k, enc.encode('round trip')); return [hex(c), new TextDecoder().decode(await s.decrypt({name:'AES-GCM', iv:u8(12), tagLength:64}, k, c))]})],
    ["gcmWrap", async () => Promise.all([s.importKey('raw', u8(16).fill(9), 'AES-GCM', true, ['wrapKey','unwrapKey']), s.importKey('raw', u8(16).fill(5), {name:'HMAC',hash:'SHA-256'}, true, ['sign'])]).then(async ([w,k])=>{ const wr = await s.wrapKey('jwk', k, w, {name:'AES-GCM', iv:u8(12)}); const un = await s.unwrapKey('jwk', wr, w, {name:'AES-GCM', iv:u8(12)}, {name:'HMAC',hash:'SHA-256'}, true, ['sign']); return [hex(wr), show(un)]; })],
    ["ivNull", async () => s.importKey('raw', u8(16), 'AES-GCM', true, ['encrypt']).then(k=>s.encrypt({name:'AES-GCM', iv:null}, k, u8(1)))],
  ],
  "hmac-1": [
    ["hashStr", async () => s.importKey('raw', u8([1,2]), {name:'HMAC',hash:5}, true, ['sign'])],
    ["hashMissing", async () => s.importKey('raw', u8([1,2]), {name:'HMAC'}, true, ['sign'])],
    ["hashMd5", async () => s.importKey('raw', u8([1,2]), {name:'HMAC',hash:'MD5'}, true, ['sign']).then(k=>s.sign('HMAC',k,u8([1])))],
    ["hashMd5Jwk", async () => s.importKey('raw', u8([1,2]), {name:'HMAC',hash:'MD5'}, true, ['sign']).then(k=>s.exportKey('jwk',k))],
    ["hmacLen0", async () => s.importKey('raw', u8([1,2]), {name:'HMAC',hash:'SHA-1', length:0}, true, ['sign'])],
    ["hmacLen9", async () => s.importKey('raw', u8([1,2]), {name:'HMAC',hash:'SHA-1', length:9}, true, ['sign'])],
  ],
  "hmac-2": [
    ["hmacLen17", async () => s.importKey('raw', u8([1,2]), {name:'HMAC',hash:'SHA-1', length:17}, true, ['sign'])],
    ["hmacLen16", async () => s.importKey('raw', u8([1,0xff]), {name:'HMAC',hash:'SHA-1', length:12}, true, ['sign']).then(k=>s.exportKey('raw',k))],
    ["hmacEmptyKey", async () => s.importKey('raw', u8([]), {name:'HMAC',hash:'SHA-1'}, true, ['sign'])],
    ["hmacEmptyUsages", async () => s.importKey('raw', u8([1]), {name:'HMAC',hash:'SHA-1'}, true, [])],
    ["hmacGen", async () => s.generateKey({name:'HMAC',hash:'SHA-512', length: 5}, true, ['sign']).then(k=>s.exportKey('raw',k).then(r=>[show(k), r.byteLength]))],
    ["exportJwkHmac", async () => s.importKey('raw', u8([1,2,3]), {name:'HMAC',hash:'SHA-384'}, true, ['verify','sign']).then(k=>s.exportKey('jwk',k))],
  ],
  "hmac-3": [
    ["exportSpkiHmac", async () => s.importKey('raw', u8([1,2,3]), {name:'HMAC',hash:'SHA-384'}, true, ['verify','sign']).then(k=>s.exportKey('spki',k))],
    ["hashNull", async () => s.importKey('raw', u8([1,2]), {name:'HMAC',hash:null}, true, ['sign'])],
    ["hashObjNoName", async () => s.importKey('raw', u8([1,2]), {name:'HMAC',hash:{}}, true, ['sign'])],
    ["hmacSignAlgObj", async () => s.importKey('raw', u8(16), {name:'HMAC',hash:'SHA-1'}, true, ['sign']).then(k=>s.sign({name:'HMAC', hash:'SHA-512'}, k, u8(1))).then(b=>b.byteLength)],
    ["hmacVerifyWrongLen", async () => s.importKey('raw', u8(16), {name:'HMAC',hash:'SHA-1'}, true, ['verify']).then(k=>s.verify('HMAC', k, u8(3), u8(1)))],
  ],
  "formats-1": [
    ["formatBad", async () => s.importKey('foo', u8([1,2]), {name:'HMAC',hash:'SHA-1'}, true, ['sign'])],
    ["exportNonExtr", async () => s.importKey('raw', u8([1,2,3]), {name:'HMAC',hash:'SHA-384'}, false, ['verify','sign']).then(k=>s.exportKey('raw',k))],
    ["exportNotKey", async () => s.exportKey('raw', {})],
    ["formatNum", async () => s.importKey(5, u8(16), 'AES-GCM', true, ['encrypt'])],
    ["exportFmtBad", async () => s.importKey('raw', u8(16), 'AES-GCM', true, ['encrypt']).then(k=>s.exportKey('foo', k))],
    ["exportPbkdf", async () => s.importKey('raw', u8(16), 'PBKDF2', false, ['deriveBits']).then(k=>s.exportKey('raw', k))],
  ],
  "formats-2": [
    ["rawSecret", async () => s.importKey('raw-secret', u8(16), 'AES-GCM', true, ['encrypt'])],
  ],
  "random-and-timing-safe-equal-1": [
    ["timingSafe", async () => s.timingSafeEqual(u8([1,2]), u8([1,2]))],
    ["timingSafeLen", async () => s.timingSafeEqual(u8([1,2]), u8([1]))],
    ["timingSafeStr", async () => s.timingSafeEqual('ab', 'ab')],
    ["grvFloat", async () => crypto.getRandomValues(new Float64Array(1))],
    ["grvBig", async () => crypto.getRandomValues(new Uint8Array(65537))],
    ["grvDV", async () => crypto.getRandomValues(new DataView(new ArrayBuffer(4)))],
  ],
  "random-and-timing-safe-equal-2": [
    ["grvNone", async () => crypto.getRandomValues()],
  ],
  "crypto-key-object-1": [
    ["keyOwn", async () => s.importKey('raw', u8([1,2,3]), {name:'HMAC',hash:'SHA-384'}, true, ['sign']).then(k=>[Object.getOwnPropertyNames(k), Object.keys(k), JSON.stringify(k), String(k), k.algorithm === k.algorithm, k.usages === k.usages, Object.isFrozen(k.usages)])],
    ["keyCtor", async () => new CryptoKey()],
    ["subtleCtor", async () => new SubtleCrypto()],
    ["globals", async () => [typeof Crypto, typeof SubtleCrypto, typeof CryptoKey, Object.prototype.toString.call(crypto), Object.prototype.toString.call(crypto.subtle), crypto.subtle === crypto.subtle]],
  ],
  "pbkdf2-1": [
    ["pbkdf0", async () => s.importKey('raw', enc.encode('pw'), 'PBKDF2', false, ['deriveBits']).then(k=>s.deriveBits({name:'PBKDF2', hash:'SHA-256', salt:u8(8), iterations: 0}, k, 256))],
    ["pbkdfLen", async () => s.importKey('raw', enc.encode('pw'), 'PBKDF2', false, ['deriveBits']).then(k=>s.deriveBits({name:'PBKDF2', hash:'SHA-256', salt:u8(8), iterations: 1}, k, 7))],
    ["pbkdfLen0", async () => s.importKey('raw', enc.encode('pw'), 'PBKDF2', false, ['deriveBits']).then(k=>s.deriveBits({name:'PBKDF2', hash:'SHA-256', salt:u8(8), iterations: 1}, k, 0))],
    ["pbkdfLenNull", async () => s.importKey('raw', enc.encode('pw'), 'PBKDF2', false, ['deriveBits']).then(k=>s.deriveBits({name:'PBKDF2', hash:'SHA-256', salt:u8(8), iterations: 1}, k, null))],
    ["pbkdfLenNeg", async () => s.importKey('raw', enc.encode('pw'), 'PBKDF2', false, ['deriveBits']).then(k=>s.deriveBits({name:'PBKDF2', hash:'SHA-256', salt:u8(8), iterations: 1}, k, -8))],
    ["pbkdfExtr", async () => s.importKey('raw', enc.encode('pw'), 'PBKDF2', true, ['deriveBits'])],
  ],
  "pbkdf2-2": [
    ["pbkdfJwk", async () => s.importKey('jwk', {kty:'oct', k:'AA'}, 'PBKDF2', false, ['deriveBits'])],
    ["pbkdfExport", async () => s.importKey('raw', enc.encode('pw'), 'PBKDF2', false, ['deriveBits']).then(k=>[show(k)])],
    ["pbkdfEmptyPw", async () => s.importKey('raw', u8([]), 'PBKDF2', false, ['deriveBits']).then(k=>s.deriveBits({name:'PBKDF2', hash:'SHA-1', salt:u8([]), iterations: 1}, k, 160))],
    ["pbkdfDeriveKey", async () => s.importKey('raw', enc.encode('password'), 'PBKDF2', false, ['deriveKey']).then(k=>s.deriveKey({name:'PBKDF2', hash:'SHA-256', salt:enc.encode('salt'), iterations: 1000}, k, {name:'AES-CBC', length: 256}, true, ['encrypt'])).then(async k=>[show(k), hex(await s.exportKey('raw',k))])],
    ["pbkdfNoIter", async () => s.importKey('raw', enc.encode('password'), 'PBKDF2', false, ['deriveBits']).then(k=>s.deriveBits({name:'PBKDF2', hash:'SHA-256', salt:enc.encode('salt')}, k, 128))],
    ["pbkdfNoSalt", async () => s.importKey('raw', enc.encode('password'), 'PBKDF2', false, ['deriveBits']).then(k=>s.deriveBits({name:'PBKDF2', hash:'SHA-256', iterations:1}, k, 128))],
  ],
  "pbkdf2-3": [
    ["pbkdfSha1", async () => s.importKey('raw', enc.encode('password'), 'PBKDF2', false, ['deriveBits']).then(k=>s.deriveBits({name:'PBKDF2', hash:'SHA-1', salt:enc.encode('salt'), iterations: 2}, k, 160))],
    ["pbkdfMd5", async () => s.importKey('raw', enc.encode('password'), 'PBKDF2', false, ['deriveBits']).then(k=>s.deriveBits({name:'PBKDF2', hash:'MD5', salt:enc.encode('salt'), iterations: 2}, k, 128))],
    ["iterStr", async () => s.importKey('raw', u8(22), 'PBKDF2', false, ['deriveBits']).then(k=>s.deriveBits({name:'PBKDF2', salt:u8(1), iterations:'3', hash:'SHA-1'}, k, 16))],
    ["pbkdfAtLimit", async () => s.importKey('raw', enc.encode('pw'), 'PBKDF2', false, ['deriveBits']).then(k=>s.deriveBits({name:'PBKDF2', hash:'SHA-256', salt:u8(8), iterations: 100000}, k, 256))],
  ],
  "ecdsa-1": [
    ["ecPkcs8", async () => imp('pkcs8', KEYS['ec_P-256'].pkcs8, {name:'ECDSA', namedCurve:'P-256'}, true, ['sign'])],
    ["ecPkcs8Export", async () => imp('pkcs8', KEYS['ec_P-256'].pkcs8, {name:'ECDSA', namedCurve:'P-256'}, true, ['sign']).then(k=>s.exportKey('pkcs8',k))],
    ["ecPkcs8Jwk", async () => imp('pkcs8', KEYS['ec_P-256'].pkcs8, {name:'ECDSA', namedCurve:'P-256'}, true, ['sign']).then(k=>s.exportKey('jwk',k))],
    ["ecPkcs8Raw", async () => imp('pkcs8', KEYS['ec_P-256'].pkcs8, {name:'ECDSA', namedCurve:'P-256'}, true, ['sign']).then(k=>s.exportKey('raw',k))],
    ["ecPkcs8Spki", async () => imp('pkcs8', KEYS['ec_P-256'].pkcs8, {name:'ECDSA', namedCurve:'P-256'}, true, ['sign']).then(k=>s.exportKey('spki',k))],
    ["ecPkcs8Bad", async () => imp('pkcs8', KEYS['ec_P-256'].pkcs8, {name:'ECDSA', namedCurve:'P-256'}, true, ['verify'])],
  ],
  "ecdsa-2": [
    ["ecPkcs8Curve", async () => imp('pkcs8', KEYS['ec_P-256'].pkcs8, {name:'ECDSA', namedCurve:'P-384'}, true, ['sign'])],
    ["ecBadCurve", async () => imp('pkcs8', KEYS['ec_P-256'].pkcs8, {name:'ECDSA', namedCurve:'P-999'}, true, ['sign'])],
    ["ecNoCurve", async () => imp('pkcs8', KEYS['ec_P-256'].pkcs8, {name:'ECDSA'}, true, ['sign'])],
    ["ecSpki", async () => imp('spki', KEYS['ec_P-256'].spki, {name:'ECDSA', namedCurve:'P-256'}, false, ['verify'])],
    ["ecSpkiSign", async () => imp('spki', KEYS['ec_P-256'].spki, {name:'ECDSA', namedCurve:'P-256'}, false, ['sign'])],
    ["ecSpkiEmpty", async () => imp('spki', KEYS['ec_P-256'].spki, {name:'ECDSA', namedCurve:'P-256'}, false, [])],
  ],
  "ecdsa-3": [
    ["ecSpkiRaw", async () => imp('spki', KEYS['ec_P-256'].spki, {name:'ECDSA', namedCurve:'P-256'}, true, []).then(k=>s.exportKey('raw',k))],
    ["ecSpkiTrail", async () => s.importKey('spki', unhex(KEYS['ec_P-256'].spki + '00'), {name:'ECDSA', namedCurve:'P-256'}, true, ['verify'])],
    ["ecSpkiJunk", async () => s.importKey('spki', u8([1,2,3]), {name:'ECDSA', namedCurve:'P-256'}, true, ['verify'])],
    ["ecPkcs8Junk", async () => s.importKey('pkcs8', u8([1,2,3]), {name:'ECDSA', namedCurve:'P-256'}, true, ['sign'])],
    ["ecSpkiRsa", async () => imp('spki', KEYS.rsa1024.spki, {name:'ECDSA', namedCurve:'P-256'}, true, ['verify'])],
    ["ecRaw", async () => imp('raw', KEYS['ec_P-256'].raw, {name:'ECDSA', namedCurve:'P-256'}, true, ['verify'])],
  ],
  "ecdsa-4": [
    ["ecRawSpki", async () => imp('raw', KEYS['ec_P-256'].raw, {name:'ECDSA', namedCurve:'P-256'}, true, ['verify']).then(k=>s.exportKey('spki',k))],
    ["ecRawCompressed", async () => imp('raw', (parseInt(KEYS['ec_P-256'].raw.slice(128,130),16)%2?'03':'02') + KEYS['ec_P-256'].raw.slice(2,66), {name:'ECDSA', namedCurve:'P-256'}, true, ['verify']).then(k=>s.exportKey('raw',k))],
    ["ecRawBad", async () => s.importKey('raw', u8(65), {name:'ECDSA', namedCurve:'P-256'}, true, ['verify'])],
    ["ecRawOff", async () => imp('raw', KEYS['ec_P-256'].raw.slice(0,128)+'00', {name:'ECDSA', namedCurve:'P-256'}, true, ['verify'])],
    ["ecRawSign", async () => imp('raw', KEYS['ec_P-256'].raw, {name:'ECDSA', namedCurve:'P-256'}, true, ['sign'])],
    ["ecVerify", async () => imp('raw', KEYS['ec_P-256'].raw, {name:'ECDSA', namedCurve:'P-256'}, true, ['verify']).then(k=>s.verify({name:'ECDSA', hash:'SHA-256'}, k, unhex(KEYS['ec_P-256'].sig256), enc.encode('cellgate')))],
  ],
  "ecdsa-5": [
    ["ecVerifyShort", async () => imp('raw', KEYS['ec_P-256'].raw, {name:'ECDSA', namedCurve:'P-256'}, true, ['verify']).then(k=>s.verify({name:'ECDSA', hash:'SHA-256'}, k, u8(3), enc.encode('cellgate')))],
    ["ecVerifyNoHash", async () => imp('raw', KEYS['ec_P-256'].raw, {name:'ECDSA', namedCurve:'P-256'}, true, ['verify']).then(k=>s.verify({name:'ECDSA'}, k, u8(64), enc.encode('cellgate')))],
    ["ecVerifyStrAlg", async () => imp('raw', KEYS['ec_P-256'].raw, {name:'ECDSA', namedCurve:'P-256'}, true, ['verify']).then(k=>s.verify('ECDSA', k, u8(64), enc.encode('cellgate')))],
    ["ecSignPub", async () => imp('pkcs8', KEYS['ec_P-256'].pkcs8, {name:'ECDSA', namedCurve:'P-256'}, true, ['sign']).then(k=>s.verify({name:'ECDSA',hash:'SHA-256'}, k, u8(64), u8(1)))],
    ["ecSignLen", async () => imp('pkcs8', KEYS['ec_P-521'].pkcs8, {name:'ECDSA', namedCurve:'P-521'}, true, ['sign']).then(k=>s.sign({name:'ECDSA',hash:'SHA-512'}, k, u8(1))).then(b=>b.byteLength)],
    ["ecJwkPriv", async () => s.importKey('jwk', KEYS['ec_P-384'].jwk, {name:'ECDSA', namedCurve:'P-384'}, true, ['sign'])],
  ],
  "ecdsa-6": [
    ["ecJwkPrivExport", async () => s.importKey('jwk', KEYS['ec_P-384'].jwk, {name:'ECDSA', namedCurve:'P-384'}, true, ['sign']).then(k=>s.exportKey('jwk',k))],
    ["ecJwkPrivPkcs8", async () => s.importKey('jwk', KEYS['ec_P-384'].jwk, {name:'ECDSA', namedCurve:'P-384'}, true, ['sign']).then(k=>s.exportKey('pkcs8',k))],
    ["ecJwkPub", async () => s.importKey('jwk', {kty:'EC', crv:'P-384', x: KEYS['ec_P-384'].jwk.x, y: KEYS['ec_P-384'].jwk.y}, {name:'ECDSA', namedCurve:'P-384'}, true, ['verify']).then(k=>[show(k)])],
    ["ecJwkAlg", async () => s.importKey('jwk', {kty:'EC', crv:'P-384', alg:'ES256', x: KEYS['ec_P-384'].jwk.x, y: KEYS['ec_P-384'].jwk.y}, {name:'ECDSA', namedCurve:'P-384'}, true, ['verify'])],
    ["ecJwkAlgBad", async () => s.importKey('jwk', {kty:'EC', crv:'P-384', alg:'XX', x: KEYS['ec_P-384'].jwk.x, y: KEYS['ec_P-384'].jwk.y}, {name:'ECDSA', namedCurve:'P-384'}, true, ['verify'])],
    ["ecJwkKty", async () => s.importKey('jwk', {kty:'RSA', crv:'P-384', x: KEYS['ec_P-384'].jwk.x, y: KEYS['ec_P-384'].jwk.y}, {name:'ECDSA', namedCurve:'P-384'}, true, ['verify'])],
  ],
  "ecdsa-7": [
    ["ecJwkCrv", async () => s.importKey('jwk', {kty:'EC', crv:'P-256', x: KEYS['ec_P-384'].jwk.x, y: KEYS['ec_P-384'].jwk.y}, {name:'ECDSA', namedCurve:'P-384'}, true, ['verify'])],
    ["ecJwkNoX", async () => s.importKey('jwk', {kty:'EC', crv:'P-384', y: KEYS['ec_P-384'].jwk.y}, {name:'ECDSA', namedCurve:'P-384'}, true, ['verify'])],
    ["ecJwkExt", async () => s.importKey('jwk', {kty:'EC', crv:'P-384', ext:false, x: KEYS['ec_P-384'].jwk.x, y: KEYS['ec_P-384'].jwk.y}, {name:'ECDSA', namedCurve:'P-384'}, true, ['verify'])],
    ["ecJwkOps", async () => s.importKey('jwk', {kty:'EC', crv:'P-384', key_ops:['sign'], x: KEYS['ec_P-384'].jwk.x, y: KEYS['ec_P-384'].jwk.y}, {name:'ECDSA', namedCurve:'P-384'}, true, ['verify'])],
    ["ecJwkUse", async () => s.importKey('jwk', {kty:'EC', crv:'P-384', use:'enc', x: KEYS['ec_P-384'].jwk.x, y: KEYS['ec_P-384'].jwk.y}, {name:'ECDSA', namedCurve:'P-384'}, true, ['verify'])],
    ["ecJwkBadPoint", async () => s.importKey('jwk', {kty:'EC', crv:'P-384', x: KEYS['ec_P-384'].jwk.x, y: KEYS['ec_P-384'].jwk.x}, {name:'ECDSA', namedCurve:'P-384'}, true, ['verify'])],
  ],
  "ecdsa-8": [
    ["ecGen", async () => s.generateKey({name:'ECDSA', namedCurve:'P-384'}, false, ['sign','verify'])],
    ["ecGenNoPriv", async () => s.generateKey({name:'ECDSA', namedCurve:'P-384'}, false, ['verify'])],
    ["ecGenBadUsage", async () => s.generateKey({name:'ECDSA', namedCurve:'P-384'}, false, ['encrypt'])],
    ["ecGenCurve", async () => s.generateKey({name:'ECDSA', namedCurve:'K-1'}, false, ['sign'])],
    ["ecGenExportPub", async () => s.generateKey({name:'ECDSA', namedCurve:'P-256'}, false, ['sign','verify']).then(k=>s.exportKey('raw', k.publicKey)).then(b=>b.byteLength)],
    ["ecGenExportPriv", async () => s.generateKey({name:'ECDSA', namedCurve:'P-256'}, false, ['sign','verify']).then(k=>s.exportKey('pkcs8', k.privateKey))],
  ],
  "ecdsa-9": [
    ["importEcJwkOth", async () => s.importKey('jwk', Object.assign({}, KEYS['ec_P-256'].jwk, {oth: []}), {name:'ECDSA', namedCurve:'P-256'}, true, ['sign'])],
    ["importEcJwkUseOps", async () => s.importKey('jwk', Object.assign({}, KEYS['ec_P-256'].jwk, {use:'sig', key_ops:['sign','verify']}), {name:'ECDSA', namedCurve:'P-256'}, true, ['sign'])],
    ["importEcJwkUseOpsBad", async () => s.importKey('jwk', Object.assign({}, KEYS['ec_P-256'].jwk, {use:'sig', key_ops:['sign','encrypt']}), {name:'ECDSA', namedCurve:'P-256'}, true, ['sign'])],
    ["importEcJwkOpsDup", async () => s.importKey('jwk', Object.assign({}, KEYS['ec_P-256'].jwk, {key_ops:['sign','sign']}), {name:'ECDSA', namedCurve:'P-256'}, true, ['sign'])],
    ["importEcJwkEmptyUsagesPriv", async () => s.importKey('jwk', KEYS['ec_P-256'].jwk, {name:'ECDSA', namedCurve:'P-256'}, true, [])],
  ],
  "ecdh-1": [
    ["ecdhGen", async () => s.generateKey({name:'ECDH', namedCurve:'P-256'}, true, ['deriveKey','deriveBits'])],
    ["ecdhGenBad", async () => s.generateKey({name:'ECDH', namedCurve:'P-256'}, true, ['sign'])],
    ["ecdhSpki", async () => imp('spki', KEYS.ecdh2.spki, {name:'ECDH', namedCurve:'P-256'}, true, [])],
    ["ecdhSpkiUsage", async () => imp('spki', KEYS.ecdh2.spki, {name:'ECDH', namedCurve:'P-256'}, true, ['deriveBits'])],
    ["ecdhDerive", async () => Promise.all([imp('pkcs8', KEYS.ecdh2.pkcs8, {name:'ECDH', namedCurve:'P-256'}, true, ['deriveBits']), imp('spki', KEYS['ec_P-256'].spki, {name:'ECDH', namedCurve:'P-256'}, true, [])]).then(([a,b])=>s.deriveBits({name:'ECDH', public:b}, a, 256))],
    ["ecdhDeriveNull", async () => Promise.all([imp('pkcs8', KEYS.ecdh2.pkcs8, {name:'ECDH', namedCurve:'P-256'}, true, ['deriveBits']), imp('spki', KEYS['ec_P-256'].spki, {name:'ECDH', namedCurve:'P-256'}, true, [])]).then(([a,b])=>s.deriveBits({name:'ECDH', public:b}, a, null))],
  ],
  "ecdh-2": [
    ["ecdhDerive13", async () => Promise.all([imp('pkcs8', KEYS.ecdh2.pkcs8, {name:'ECDH', namedCurve:'P-256'}, true, ['deriveBits']), imp('spki', KEYS['ec_P-256'].spki, {name:'ECDH', namedCurve:'P-256'}, true, [])]).then(([a,b])=>s.deriveBits({name:'ECDH', public:b}, a, 13))],
    ["ecdhDeriveLong", async () => Promise.all([imp('pkcs8', KEYS.ecdh2.pkcs8, {name:'ECDH', namedCurve:'P-256'}, true, ['deriveBits']), imp('spki', KEYS['ec_P-256'].spki, {name:'ECDH', namedCurve:'P-256'}, true, [])]).then(([a,b])=>s.deriveBits({name:'ECDH', public:b}, a, 264))],
    ["ecdhDerivePriv", async () => imp('pkcs8', KEYS.ecdh2.pkcs8, {name:'ECDH', namedCurve:'P-256'}, true, ['deriveBits']).then((a)=>s.deriveBits({name:'ECDH', public:a}, a, 256))],
    ["ecdhDeriveNoPub", async () => imp('pkcs8', KEYS.ecdh2.pkcs8, {name:'ECDH', namedCurve:'P-256'}, true, ['deriveBits']).then((a)=>s.deriveBits({name:'ECDH'}, a, 256))],
    ["ecdhDeriveCurve", async () => Promise.all([imp('pkcs8', KEYS.ecdh2.pkcs8, {name:'ECDH', namedCurve:'P-256'}, true, ['deriveBits']), imp('spki', KEYS['ec_P-384'].spki, {name:'ECDH', namedCurve:'P-384'}, true, [])]).then(([a,b])=>s.deriveBits({name:'ECDH', public:b}, a, 256))],
    ["ecdhDeriveAlg", async () => Promise.all([imp('pkcs8', KEYS.ecdh2.pkcs8, {name:'ECDH', namedCurve:'P-256'}, true, ['deriveBits']), imp('spki', KEYS['ec_P-256'].spki, {name:'ECDSA', namedCurve:'P-256'}, true, [])]).then(([a,b])=>s.deriveBits({name:'ECDH', public:b}, a, 256))],
  ],
  "ecdh-3": [
    ["ecdhDeriveKey", async () => Promise.all([imp('pkcs8', KEYS.ecdh2.pkcs8, {name:'ECDH', namedCurve:'P-256'}, true, ['deriveKey']), imp('spki', KEYS['ec_P-256'].spki, {name:'ECDH', namedCurve:'P-256'}, true, [])]).then(([a,b])=>s.deriveKey({name:'ECDH', public:b}, a, {name:'AES-GCM', length:128}, true, ['encrypt'])).then(k=>s.exportKey('raw',k))],
    ["ecdhPkcs8Export", async () => imp('pkcs8', KEYS.ecdh2.pkcs8, {name:'ECDH', namedCurve:'P-256'}, true, ['deriveBits']).then(k=>s.exportKey('pkcs8',k))],
    ["importEcdhJwkNoKeyOps", async () => s.importKey('jwk', {kty:'EC', crv:'P-256', x:KEYS['ec_P-256'].jwk.x, y:KEYS['ec_P-256'].jwk.y}, {name:'ECDH', namedCurve:'P-256'}, true, [])],
    ["importEcdhJwkPriv", async () => s.importKey('jwk', KEYS['ec_P-256'].jwk, {name:'ECDH', namedCurve:'P-256'}, true, ['deriveBits'])],
    ["importEcdhJwkPrivNoOps", async () => s.importKey('jwk', Object.assign({}, KEYS['ec_P-256'].jwk, {key_ops: undefined}), {name:'ECDH', namedCurve:'P-256'}, true, ['deriveBits'])],
  ],
  "rsa-import-export-1": [
    ["rsaPkcs8", async () => imp('pkcs8', KEYS.rsa1024.pkcs8, {name:'RSASSA-PKCS1-v1_5', hash:'SHA-256'}, true, ['sign'])],
    ["rsaPkcs8Export", async () => imp('pkcs8', KEYS.rsa1024.pkcs8, {name:'RSASSA-PKCS1-v1_5', hash:'SHA-256'}, true, ['sign']).then(k=>s.exportKey('pkcs8',k)).then(b=>hex(b)===KEYS.rsa1024.pkcs8)],
    ["rsaPkcs8Jwk", async () => imp('pkcs8', KEYS.rsa1024.pkcs8, {name:'RSASSA-PKCS1-v1_5', hash:'SHA-384'}, true, ['sign']).then(k=>s.exportKey('jwk',k)).then(j=>[Object.keys(j), j.alg, j.e, j.key_ops])],
    ["rsaRawExport", async () => imp('spki', KEYS.rsa1024.spki, {name:'RSA-PSS', hash:'SHA-256'}, true, ['verify']).then(k=>s.exportKey('raw',k))],
    ["rsaSpkiExport", async () => imp('spki', KEYS.rsa1024.spki, {name:'RSA-PSS', hash:'SHA-256'}, true, ['verify']).then(k=>s.exportKey('spki',k)).then(b=>hex(b)===KEYS.rsa1024.spki)],
    ["rsaRawImport", async () => imp('raw', KEYS.rsa1024.spki, {name:'RSA-PSS', hash:'SHA-256'}, true, ['verify'])],
  ],
  "rsa-import-export-2": [
    ["rsaNoHash", async () => imp('spki', KEYS.rsa1024.spki, {name:'RSA-PSS'}, true, ['verify'])],
    ["rsaSpkiAsEc", async () => imp('spki', KEYS['ec_P-256'].spki, {name:'RSA-PSS', hash:'SHA-256'}, true, ['verify'])],
    ["rsaPkcs8Pub", async () => imp('pkcs8', KEYS.rsa1024.spki, {name:'RSA-PSS', hash:'SHA-256'}, true, ['sign'])],
  ],
  "rsa-sign-1": [
    ["rsaPkcs8Sign", async () => imp('pkcs8', KEYS.rsa1024.pkcs8, {name:'RSASSA-PKCS1-v1_5', hash:'SHA-256'}, true, ['sign']).then(k=>s.sign('RSASSA-PKCS1-v1_5', k, enc.encode('cellgate')))],
    ["rsaPssVerify", async () => imp('spki', KEYS.rsa1024.spki, {name:'RSA-PSS', hash:'SHA-256'}, true, ['verify']).then(k=>s.verify({name:'RSA-PSS', saltLength:32}, k, unhex(KEYS.rsa1024.pss32), enc.encode('cellgate')))],
    ["rsaPssVerifyNoSalt", async () => imp('spki', KEYS.rsa1024.spki, {name:'RSA-PSS', hash:'SHA-256'}, true, ['verify']).then(k=>s.verify({name:'RSA-PSS'}, k, unhex(KEYS.rsa1024.pss32), enc.encode('cellgate')))],
    ["rsaPssVerifyNeg", async () => imp('spki', KEYS.rsa1024.spki, {name:'RSA-PSS', hash:'SHA-256'}, true, ['verify']).then(k=>s.verify({name:'RSA-PSS', saltLength:-1}, k, unhex(KEYS.rsa1024.pss32), enc.encode('cellgate')))],
    ["rsaPssVerifySalt0", async () => imp('spki', KEYS.rsa1024.spki, {name:'RSA-PSS', hash:'SHA-256'}, true, ['verify']).then(k=>s.verify({name:'RSA-PSS', saltLength:0}, k, unhex(KEYS.rsa1024.pss32), enc.encode('cellgate')))],
    ["rsaPssVerifyShort", async () => imp('spki', KEYS.rsa1024.spki, {name:'RSA-PSS', hash:'SHA-256'}, true, ['verify']).then(k=>s.verify({name:'RSA-PSS', saltLength:32}, k, u8(5), enc.encode('cellgate')))],
  ],
  "rsa-sign-2": [
    ["rsaPkcsVerifyShort", async () => imp('spki', KEYS.rsa1024.spki, {name:'RSASSA-PKCS1-v1_5', hash:'SHA-256'}, true, ['verify']).then(k=>s.verify({name:'RSASSA-PKCS1-v1_5'}, k, u8(5), enc.encode('cellgate')))],
    ["rsaPssSignBigSalt", async () => imp('pkcs8', KEYS.rsa1024.pkcs8, {name:'RSA-PSS', hash:'SHA-512'}, true, ['sign']).then(k=>s.sign({name:'RSA-PSS', saltLength:100}, k, enc.encode('x')))],
    ["rsaPssSignLen", async () => imp('pkcs8', KEYS.rsa1024.pkcs8, {name:'RSA-PSS', hash:'SHA-512'}, true, ['sign']).then(k=>s.sign({name:'RSA-PSS', saltLength:20}, k, enc.encode('x'))).then(b=>b.byteLength)],
    ["rsaSignPkcsSmall", async () => imp('pkcs8', KEYS.rsa1024.pkcs8, {name:'RSASSA-PKCS1-v1_5', hash:'SHA-512'}, true, ['sign']).then(k=>s.sign('RSASSA-PKCS1-v1_5', k, enc.encode('x'))).then(b=>b.byteLength)],
  ],
  "rsa-oaep-1": [
    ["rsaOaepDecrypt", async () => imp('pkcs8', KEYS.rsa1024.pkcs8, {name:'RSA-OAEP', hash:'SHA-256'}, true, ['decrypt']).then(k=>s.decrypt({name:'RSA-OAEP'}, k, unhex(KEYS.rsa1024.oaep))).then(b=>new TextDecoder().decode(b))],
    ["rsaOaepDecryptLabel", async () => imp('pkcs8', KEYS.rsa1024.pkcs8, {name:'RSA-OAEP', hash:'SHA-256'}, true, ['decrypt']).then(k=>s.decrypt({name:'RSA-OAEP', label: enc.encode('L')}, k, unhex(KEYS.rsa1024.oaepLabel))).then(b=>new TextDecoder().decode(b))],
    ["rsaOaepDecryptBadLabel", async () => imp('pkcs8', KEYS.rsa1024.pkcs8, {name:'RSA-OAEP', hash:'SHA-256'}, true, ['decrypt']).then(k=>s.decrypt({name:'RSA-OAEP', label: enc.encode('M')}, k, unhex(KEYS.rsa1024.oaepLabel)))],
    ["rsaOaepDecryptJunk", async () => imp('pkcs8', KEYS.rsa1024.pkcs8, {name:'RSA-OAEP', hash:'SHA-256'}, true, ['decrypt']).then(k=>s.decrypt({name:'RSA-OAEP'}, k, u8(5)))],
    ["rsaOaepEncryptBig", async () => imp('spki', KEYS.rsa1024.spki, {name:'RSA-OAEP', hash:'SHA-256'}, true, ['encrypt']).then(k=>s.encrypt({name:'RSA-OAEP'}, k, u8(100)))],
    ["rsaOaepEncryptLen", async () => imp('spki', KEYS.rsa1024.spki, {name:'RSA-OAEP', hash:'SHA-256'}, true, ['encrypt']).then(k=>s.encrypt({name:'RSA-OAEP'}, k, u8(10))).then(b=>b.byteLength)],
  ],
  "rsa-oaep-2": [
    ["rsaOaepImportSign", async () => imp('spki', KEYS.rsa1024.spki, {name:'RSA-OAEP', hash:'SHA-256'}, true, ['verify'])],
    ["rsaOaepPrivUsages", async () => imp('pkcs8', KEYS.rsa1024.pkcs8, {name:'RSA-OAEP', hash:'SHA-256'}, true, ['encrypt'])],
  ],
  "rsa-generate-1": [
    ["rsaGen", async () => s.generateKey({name:'RSA-OAEP', modulusLength:1024, publicExponent:u8([1,0,1]), hash:'SHA-1'}, true, ['encrypt','decrypt','wrapKey','unwrapKey'])],
    ["rsaGen3", async () => s.generateKey({name:'RSASSA-PKCS1-v1_5', modulusLength:512, publicExponent:u8([3]), hash:'SHA-1'}, true, ['sign'])],
    ["rsaGenBadE", async () => s.generateKey({name:'RSASSA-PKCS1-v1_5', modulusLength:1024, publicExponent:u8([5]), hash:'SHA-1'}, true, ['sign'])],
    ["rsaGenBadMod", async () => s.generateKey({name:'RSASSA-PKCS1-v1_5', modulusLength:1000, publicExponent:u8([1,0,1]), hash:'SHA-1'}, true, ['sign'])],
    ["rsaGenSmall", async () => s.generateKey({name:'RSASSA-PKCS1-v1_5', modulusLength:128, publicExponent:u8([1,0,1]), hash:'SHA-1'}, true, ['sign'])],
    ["rsaGen384", async () => s.generateKey({name:'RSASSA-PKCS1-v1_5', modulusLength:384, publicExponent:u8([1,0,1]), hash:'SHA-1'}, true, ['sign'])],
  ],
  "rsa-generate-2": [
    ["rsaGenNoExp", async () => s.generateKey({name:'RSASSA-PKCS1-v1_5', modulusLength:1024, hash:'SHA-1'}, true, ['sign'])],
    ["rsaGenNoHash", async () => s.generateKey({name:'RSASSA-PKCS1-v1_5', modulusLength:1024, publicExponent:u8([1,0,1])}, true, ['sign'])],
    ["rsaGenNoMod", async () => s.generateKey({name:'RSASSA-PKCS1-v1_5', publicExponent:u8([1,0,1]), hash:'SHA-1'}, true, ['sign'])],
    ["rsaGenBadHash", async () => s.generateKey({name:'RSASSA-PKCS1-v1_5', modulusLength:1024, publicExponent:u8([1,0,1]), hash:'SHA-3'}, true, ['sign'])],
    ["rsaGenUsage", async () => s.generateKey({name:'RSASSA-PKCS1-v1_5', modulusLength:1024, publicExponent:u8([1,0,1]), hash:'SHA-1'}, true, ['encrypt'])],
    ["rsaGenExpAB", async () => s.generateKey({name:'RSASSA-PKCS1-v1_5', modulusLength:1024, publicExponent:u8([1,0,1]).buffer, hash:'SHA-1'}, true, ['sign'])],
  ],
  "rsa-jwk-1": [
    ["rsaJwkPub", async () => s.importKey('jwk', {kty:'RSA', n: KEYS.rsa1024.jwk.n, e: KEYS.rsa1024.jwk.e, alg:'RS256'}, {name:'RSASSA-PKCS1-v1_5', hash:'SHA-256'}, true, ['verify']).then(k=>s.exportKey('spki',k)).then(b=>hex(b)===KEYS.rsa1024.spki)],
    ["rsaJwkAlgMismatch", async () => s.importKey('jwk', {kty:'RSA', n: KEYS.rsa1024.jwk.n, e: KEYS.rsa1024.jwk.e, alg:'RS384'}, {name:'RSASSA-PKCS1-v1_5', hash:'SHA-256'}, true, ['verify'])],
    ["rsaJwkKty", async () => s.importKey('jwk', {kty:'EC', n: KEYS.rsa1024.jwk.n, e: KEYS.rsa1024.jwk.e}, {name:'RSA-OAEP', hash:'SHA-256'}, true, ['encrypt'])],
    ["rsaJwkNoN", async () => s.importKey('jwk', {kty:'RSA', e: KEYS.rsa1024.jwk.e}, {name:'RSA-OAEP', hash:'SHA-256'}, true, ['encrypt'])],
    ["rsaJwkPartial", async () => s.importKey('jwk', {kty:'RSA', n: KEYS.rsa1024.jwk.n, e: KEYS.rsa1024.jwk.e, d: KEYS.rsa1024.jwk.d, p: KEYS.rsa1024.jwk.p}, {name:'RSA-OAEP', hash:'SHA-256'}, true, ['decrypt'])],
    ["rsaJwkPrivRoundTrip", async () => s.importKey('jwk', KEYS.rsa1024.jwk, {name:'RSASSA-PKCS1-v1_5', hash:'SHA-256'}, true, ['sign']).then(k=>s.exportKey('pkcs8',k)).then(b=>hex(b)===KEYS.rsa1024.pkcs8)],
  ],
  "rsa-jwk-2": [
    ["rsaJwkOaepExport", async () => imp('spki', KEYS.rsa1024.spki, {name:'RSA-OAEP', hash:'SHA-1'}, true, ['encrypt']).then(k=>s.exportKey('jwk',k)).then(j=>[Object.keys(j), j.alg, j.key_ops])],
  ],
  "ed25519-1": [
    ["edPkcs8", async () => imp('pkcs8', KEYS.ed.pkcs8, 'Ed25519', true, ['sign'])],
    ["edSign", async () => imp('pkcs8', KEYS.ed.pkcs8, 'Ed25519', true, ['sign']).then(k=>s.sign('Ed25519', k, enc.encode('cellgate')))],
    ["edSignNode", async () => imp('pkcs8', KEYS.ed.pkcs8, {name:'NODE-ED25519', namedCurve:'NODE-ED25519'}, true, ['sign']).then(k=>s.sign('NODE-ED25519', k, enc.encode('cellgate')))],
    ["edNodeNoCurve", async () => imp('pkcs8', KEYS.ed.pkcs8, {name:'NODE-ED25519'}, true, ['sign'])],
    ["edNodeBadCurve", async () => imp('pkcs8', KEYS.ed.pkcs8, {name:'NODE-ED25519', namedCurve:'X'}, true, ['sign'])],
    ["edSignWrongAlg", async () => imp('pkcs8', KEYS.ed.pkcs8, 'Ed25519', true, ['sign']).then(k=>s.sign('NODE-ED25519', k, enc.encode('cellgate')))],
  ],
  "ed25519-2": [
    ["edPkcs8Export", async () => imp('pkcs8', KEYS.ed.pkcs8, 'Ed25519', true, ['sign']).then(k=>s.exportKey('pkcs8',k)).then(b=>hex(b)===KEYS.ed.pkcs8 || hex(b))],
    ["edPkcs8Jwk", async () => imp('pkcs8', KEYS.ed.pkcs8, 'Ed25519', true, ['sign']).then(k=>s.exportKey('jwk',k))],
    ["edSpki", async () => imp('spki', KEYS.ed.spki, 'Ed25519', true, ['verify']).then(k=>s.exportKey('raw',k))],
    ["edRaw", async () => s.importKey('raw', u8(32), 'Ed25519', true, ['verify']).then(k=>s.exportKey('jwk',k))],
    ["edRawBadLen", async () => s.importKey('raw', u8(31), 'Ed25519', true, ['verify'])],
    ["edRawSign", async () => s.importKey('raw', u8(32), 'Ed25519', true, ['sign'])],
  ],
  "ed25519-3": [
    ["edJwkPub", async () => s.importKey('jwk', {kty:'OKP', crv:'Ed25519', x: KEYS.ed.jwk.x}, 'Ed25519', true, ['verify']).then(k=>s.exportKey('spki',k)).then(b=>hex(b)===KEYS.ed.spki)],
    ["edJwkCrv", async () => s.importKey('jwk', {kty:'OKP', crv:'X25519', x: KEYS.ed.jwk.x}, 'Ed25519', true, ['verify'])],
    ["edJwkKty", async () => s.importKey('jwk', {kty:'EC', crv:'Ed25519', x: KEYS.ed.jwk.x}, 'Ed25519', true, ['verify'])],
    ["edJwkNoCrv", async () => s.importKey('jwk', {kty:'OKP', x: KEYS.ed.jwk.x}, 'Ed25519', true, ['verify'])],
    ["edJwkAlg", async () => s.importKey('jwk', {kty:'OKP', crv:'Ed25519', alg:'ES256', x: KEYS.ed.jwk.x}, 'Ed25519', true, ['verify'])],
    ["edJwkShortX", async () => s.importKey('jwk', {kty:'OKP', crv:'Ed25519', x: 'AAAA'}, 'Ed25519', true, ['verify'])],
  ],
  "ed25519-4": [
    ["edJwkNoX", async () => s.importKey('jwk', {kty:'OKP', crv:'Ed25519'}, 'Ed25519', true, ['verify'])],
    ["edJwkPrivNoX", async () => s.importKey('jwk', {kty:'OKP', crv:'Ed25519', d: KEYS.ed.jwk.d}, 'Ed25519', true, ['sign'])],
    ["edJwkPrivWrongX", async () => s.importKey('jwk', {kty:'OKP', crv:'Ed25519', d: KEYS.ed.jwk.d, x: 'A'.repeat(43)}, 'Ed25519', true, ['sign']).then(k=>s.exportKey('jwk',k))],
    ["edVerifyBadLen", async () => imp('spki', KEYS.ed.spki, 'Ed25519', true, ['verify']).then(k=>s.verify('Ed25519', k, u8(10), u8(1)))],
    ["edVerifyFalse", async () => imp('spki', KEYS.ed.spki, 'Ed25519', true, ['verify']).then(k=>s.verify('Ed25519', k, u8(64), u8(1)))],
    ["edGen", async () => s.generateKey('Ed25519', true, ['sign','verify'])],
  ],
  "ed25519-5": [
    ["edGenDerive", async () => s.generateKey('Ed25519', true, ['deriveBits'])],
    ["edGenPubOnly", async () => s.generateKey('Ed25519', true, ['verify'])],
    ["edAsEc", async () => imp('spki', KEYS.ed.spki, {name:'ECDSA',namedCurve:'P-256'}, true, ['verify'])],
  ],
  "x25519-1": [
    ["xPkcs8", async () => imp('pkcs8', KEYS.x.pkcs8, 'X25519', true, ['deriveBits'])],
    ["xPkcs8Export", async () => imp('pkcs8', KEYS.x.pkcs8, 'X25519', true, ['deriveBits']).then(k=>s.exportKey('pkcs8',k)).then(b=>hex(b)===KEYS.x.pkcs8 || hex(b))],
    ["xJwk", async () => imp('pkcs8', KEYS.x.pkcs8, 'X25519', true, ['deriveBits']).then(k=>s.exportKey('jwk',k))],
    ["xSpki", async () => imp('spki', KEYS.x.spki, 'X25519', true, [])],
    ["xSpkiUsage", async () => imp('spki', KEYS.x.spki, 'X25519', true, ['deriveBits'])],
    ["xRaw", async () => s.importKey('raw', u8(32), 'X25519', true, [])],
  ],
  "x25519-2": [
    ["xDerive", async () => Promise.all([imp('pkcs8', KEYS.x.pkcs8, 'X25519', true, ['deriveBits']), imp('spki', KEYS.x.spki, 'X25519', true, [])]).then(([a,b])=>s.deriveBits({name:'X25519', public:b}, a, 256))],
    ["xDeriveNull", async () => Promise.all([imp('pkcs8', KEYS.x.pkcs8, 'X25519', true, ['deriveBits']), imp('spki', KEYS.x.spki, 'X25519', true, [])]).then(([a,b])=>s.deriveBits({name:'X25519', public:b}, a))],
    ["xDerive300", async () => Promise.all([imp('pkcs8', KEYS.x.pkcs8, 'X25519', true, ['deriveBits']), imp('spki', KEYS.x.spki, 'X25519', true, [])]).then(([a,b])=>s.deriveBits({name:'X25519', public:b}, a, 300))],
    ["xDeriveZero", async () => Promise.all([imp('pkcs8', KEYS.x.pkcs8, 'X25519', true, ['deriveBits']), s.importKey('raw', u8(32), 'X25519', true, [])]).then(([a,b])=>s.deriveBits({name:'X25519', public:b}, a, 256))],
    ["xDeriveEdPub", async () => Promise.all([imp('pkcs8', KEYS.x.pkcs8, 'X25519', true, ['deriveBits']), imp('spki', KEYS.ed.spki, 'Ed25519', true, [])]).then(([a,b])=>s.deriveBits({name:'X25519', public:b}, a, 256))],
    ["xDeriveEcPub", async () => Promise.all([imp('pkcs8', KEYS.x.pkcs8, 'X25519', true, ['deriveBits']), imp('spki', KEYS['ec_P-256'].spki, {name:'ECDH',namedCurve:'P-256'}, true, [])]).then(([a,b])=>s.deriveBits({name:'X25519', public:b}, a, 256))],
  ],
  "x25519-3": [
    ["xGen", async () => s.generateKey('X25519', true, ['deriveKey'])],
    ["xGenBad", async () => s.generateKey('X25519', true, ['sign'])],
  ],
  "aes-cbc-1": [
    ["cbcEnc", async () => s.importKey('raw', u8(16).fill(1), 'AES-CBC', true, ['encrypt']).then(k=>s.encrypt({name:'AES-CBC', iv:u8(16)}, k, enc.encode('hello')))],
    ["cbcIvBad", async () => s.importKey('raw', u8(16).fill(1), 'AES-CBC', true, ['encrypt']).then(k=>s.encrypt({name:'AES-CBC', iv:u8(15)}, k, enc.encode('hello')))],
    ["cbcIvBadDec", async () => s.importKey('raw', u8(16).fill(1), 'AES-CBC', true, ['decrypt']).then(k=>s.decrypt({name:'AES-CBC', iv:u8(15)}, k, u8(16)))],
    ["cbcDecBad16", async () => s.importKey('raw', u8(16).fill(1), 'AES-CBC', true, ['decrypt']).then(k=>s.decrypt({name:'AES-CBC', iv:u8(16)}, k, u8(16)))],
    ["cbcDecBad32", async () => s.importKey('raw', u8(16).fill(1), 'AES-CBC', true, ['decrypt']).then(k=>s.decrypt({name:'AES-CBC', iv:u8(16)}, k, u8(32)))],
    ["cbcDecBad20", async () => s.importKey('raw', u8(16).fill(1), 'AES-CBC', true, ['decrypt']).then(k=>s.decrypt({name:'AES-CBC', iv:u8(16)}, k, u8(20)))],
  ],
  "aes-cbc-2": [
    ["cbcDecBad5", async () => s.importKey('raw', u8(16).fill(1), 'AES-CBC', true, ['decrypt']).then(k=>s.decrypt({name:'AES-CBC', iv:u8(16)}, k, u8(5)))],
    ["cbcDecBad0", async () => s.importKey('raw', u8(16).fill(1), 'AES-CBC', true, ['decrypt']).then(k=>s.decrypt({name:'AES-CBC', iv:u8(16)}, k, u8(0)))],
    ["cbcDecBad40", async () => s.importKey('raw', u8(16).fill(1), 'AES-CBC', true, ['decrypt']).then(k=>s.decrypt({name:'AES-CBC', iv:u8(16)}, k, u8(40)))],
  ],
  "aes-ctr-1": [
    ["ctrEnc", async () => s.importKey('raw', u8(16).fill(1), 'AES-CTR', true, ['encrypt']).then(k=>s.encrypt({name:'AES-CTR', counter:u8(16).fill(255), length: 8}, k, u8(40)))],
    ["ctrEncWrapFull", async () => s.importKey('raw', u8(16).fill(1), 'AES-CTR', true, ['encrypt']).then(k=>s.encrypt({name:'AES-CTR', counter:u8(16).fill(255), length: 128}, k, u8(40)))],
    ["ctrRepeat", async () => s.importKey('raw', u8(16).fill(1), 'AES-CTR', true, ['encrypt']).then(k=>s.encrypt({name:'AES-CTR', counter:u8(16), length: 1}, k, u8(40)))],
    ["ctrLen0", async () => s.importKey('raw', u8(16).fill(1), 'AES-CTR', true, ['encrypt']).then(k=>s.encrypt({name:'AES-CTR', counter:u8(16), length: 0}, k, u8(4)))],
    ["ctrNoLen", async () => s.importKey('raw', u8(16).fill(1), 'AES-CTR', true, ['encrypt']).then(k=>s.encrypt({name:'AES-CTR', counter:u8(16)}, k, u8(4)))],
    ["ctrNoCounter", async () => s.importKey('raw', u8(16).fill(1), 'AES-CTR', true, ['encrypt']).then(k=>s.encrypt({name:'AES-CTR', length:64}, k, u8(4)))],
  ],
  "aes-ctr-2": [
    ["ctrCounter8", async () => s.importKey('raw', u8(16).fill(1), 'AES-CTR', true, ['encrypt']).then(k=>s.encrypt({name:'AES-CTR', counter:u8(8), length:64}, k, u8(4)))],
    ["ctrOdd", async () => s.importKey('raw', u8(16).fill(1), 'AES-CTR', true, ['encrypt']).then(k=>s.encrypt({name:'AES-CTR', counter:u8(16).fill(0xf7), length: 3}, k, u8(40)))],
  ],
  "aes-import-export-1": [
    ["aesBadLen", async () => s.importKey('raw', u8(20), 'AES-CTR', true, ['encrypt'])],
    ["aesUsageBad", async () => s.importKey('raw', u8(16), 'AES-KW', true, ['encrypt'])],
    ["aesJwk", async () => s.importKey('raw', u8(24).fill(7), 'AES-KW', true, ['wrapKey','unwrapKey']).then(k=>s.exportKey('jwk',k))],
    ["aesJwkImport", async () => s.importKey('jwk', {kty:'oct', k:'BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcH', alg:'A192KW'}, 'AES-KW', true, ['wrapKey']).then(k=>[show(k)])],
    ["aesJwkAlgBad", async () => s.importKey('jwk', {kty:'oct', k:'BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcH', alg:'A128KW'}, 'AES-KW', true, ['wrapKey'])],
    ["aesJwkKty", async () => s.importKey('jwk', {kty:'EC', k:'BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcH'}, 'AES-KW', true, ['wrapKey'])],
  ],
  "aes-import-export-2": [
    ["aesJwkNoK", async () => s.importKey('jwk', {kty:'oct'}, 'AES-KW', true, ['wrapKey'])],
    ["aesJwkBadB64", async () => s.importKey('jwk', {kty:'oct', k:'!!!!'}, 'AES-KW', true, ['wrapKey'])],
    ["aesJwkLen", async () => s.importKey('jwk', {kty:'oct', k:'BwcH'}, 'AES-KW', true, ['wrapKey'])],
    ["aesJwkUse", async () => s.importKey('jwk', {kty:'oct', k:'BwcHBwcHBwcHBwcHBwcHBw', use:'sig'}, 'AES-GCM', true, ['encrypt'])],
    ["aesJwkOps", async () => s.importKey('jwk', {kty:'oct', k:'BwcHBwcHBwcHBwcHBwcHBw', key_ops:['decrypt']}, 'AES-GCM', true, ['encrypt'])],
    ["aesJwkOpsDup", async () => s.importKey('jwk', {kty:'oct', k:'BwcHBwcHBwcHBwcHBwcHBw', key_ops:['encrypt','encrypt']}, 'AES-GCM', true, ['encrypt'])],
  ],
  "aes-import-export-3": [
    ["aesJwkExt", async () => s.importKey('jwk', {kty:'oct', k:'BwcHBwcHBwcHBwcHBwcHBw', ext:false}, 'AES-GCM', true, ['encrypt'])],
    ["aesJwkExtOk", async () => s.importKey('jwk', {kty:'oct', k:'BwcHBwcHBwcHBwcHBwcHBw', ext:false}, 'AES-GCM', false, ['encrypt'])],
    ["aesJwkKtyMissing", async () => s.importKey('jwk', {k:'BwcHBwcHBwcHBwcHBwcHBw'}, 'AES-GCM', false, ['encrypt'])],
    ["aesJwkKopsStr", async () => s.importKey('jwk', {kty:'oct', k:'BwcHBwcHBwcHBwcHBwcHBw', key_ops:'encrypt'}, 'AES-GCM', false, ['encrypt'])],
    ["aesExportSpki", async () => s.importKey('raw', u8(16), 'AES-CBC', true, ['encrypt']).then(k=>s.exportKey('spki',k))],
    ["aesSign", async () => s.importKey('raw', u8(16), 'AES-CBC', true, ['encrypt']).then(k=>s.sign('AES-CBC',k,u8(1)))],
  ],
  "wrap-unwrap-1": [
    ["kwWrap", async () => Promise.all([s.importKey('raw', u8(16).fill(9), 'AES-KW', true, ['wrapKey']), s.importKey('raw', u8(16).fill(5), 'AES-GCM', true, ['encrypt'])]).then(([w,k])=>s.wrapKey('raw', k, w, 'AES-KW'))],
    ["kwWrapJwk", async () => Promise.all([s.importKey('raw', u8(16).fill(9), 'AES-KW', true, ['wrapKey']), s.importKey('raw', u8(16).fill(5), 'AES-GCM', true, ['encrypt'])]).then(([w,k])=>s.wrapKey('jwk', k, w, 'AES-KW'))],
    ["kwWrapJwkLen", async () => Promise.all([s.importKey('raw', u8(16).fill(9), 'AES-GCM', true, ['wrapKey']), s.importKey('raw', u8(16).fill(5), 'AES-GCM', true, ['encrypt'])]).then(([w,k])=>s.wrapKey('jwk', k, w, {name:'AES-GCM', iv:u8(12)})).then(b=>b.byteLength)],
    ["kwUnwrap", async () => s.importKey('raw', u8(16).fill(9), 'AES-KW', true, ['unwrapKey']).then(w=>s.unwrapKey('raw', unhex('5c8a4a4c0d6b8b2bc3c4e0a1f12c3d0d7ab1e4ad2f85c3cd'), w, 'AES-KW', 'AES-GCM', true, ['encrypt']))],
    ["kwUnwrapBadLen", async () => s.importKey('raw', u8(16).fill(9), 'AES-KW', true, ['unwrapKey']).then(w=>s.unwrapKey('raw', u8(20), w, 'AES-KW', 'AES-GCM', true, ['encrypt']))],
    ["kwUnwrapShort", async () => s.importKey('raw', u8(16).fill(9), 'AES-KW', true, ['unwrapKey']).then(w=>s.unwrapKey('raw', u8(16), w, 'AES-KW', 'AES-GCM', true, ['encrypt']))],
  ],
  "wrap-unwrap-2": [
    ["kwWrapOdd", async () => Promise.all([s.importKey('raw', u8(16).fill(9), 'AES-KW', true, ['wrapKey']), s.importKey('raw', u8(5).fill(5), {name:'HMAC',hash:'SHA-1'}, true, ['sign'])]).then(([w,k])=>s.wrapKey('raw', k, w, 'AES-KW'))],
    ["kwWrapNonExtr", async () => Promise.all([s.importKey('raw', u8(16).fill(9), 'AES-KW', true, ['wrapKey']), s.importKey('raw', u8(16).fill(5), 'AES-GCM', false, ['encrypt'])]).then(([w,k])=>s.wrapKey('raw', k, w, 'AES-KW'))],
    ["kwWrapUsage", async () => Promise.all([s.importKey('raw', u8(16).fill(9), 'AES-KW', true, ['unwrapKey']), s.importKey('raw', u8(16).fill(5), 'AES-GCM', true, ['encrypt'])]).then(([w,k])=>s.wrapKey('raw', k, w, 'AES-KW'))],
    ["kwEncrypt", async () => s.importKey('raw', u8(16).fill(9), 'AES-KW', true, ['wrapKey']).then(w=>s.encrypt('AES-KW', w, u8(16)))],
    ["unwrapBadJson", async () => s.importKey('raw', u8(16).fill(9), 'AES-GCM', true, ['unwrapKey', 'encrypt']).then(async w=>{ const c = await s.encrypt({name:'AES-GCM', iv:u8(12)}, w, enc.encode('not json')); return s.unwrapKey('jwk', c, w, {name:'AES-GCM', iv:u8(12)}, 'AES-GCM', true, ['encrypt']).catch((e) => 'rejected with ' + e.name); })],
    ["unwrapJsonNoKty", async () => s.importKey('raw', u8(16).fill(9), 'AES-GCM', true, ['unwrapKey', 'encrypt']).then(async w=>{ const c = await s.encrypt({name:'AES-GCM', iv:u8(12)}, w, enc.encode('{"k":"AA"}')); return s.unwrapKey('jwk', c, w, {name:'AES-GCM', iv:u8(12)}, 'AES-GCM', true, ['encrypt']); })],
  ],
  "wrap-unwrap-3": [
    ["unwrapEmptyUsages", async () => s.importKey('raw', u8(16).fill(9), 'AES-KW', true, ['unwrapKey','wrapKey']).then(async w=>{ const k = await s.importKey('raw', u8(16), 'AES-GCM', true, ['encrypt']); const c = await s.wrapKey('raw', k, w, 'AES-KW'); return s.unwrapKey('raw', c, w, 'AES-KW', 'AES-GCM', true, []); })],
  ],
  "hkdf-1": [
    ["hkdf", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveBits']).then(k=>s.deriveBits({name:'HKDF', hash:'SHA-256', salt: unhex('000102030405060708090a0b0c'), info: unhex('f0f1f2f3f4f5f6f7f8f9')}, k, 336))],
    ["hkdfNoInfo", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveBits']).then(k=>s.deriveBits({name:'HKDF', hash:'SHA-256', salt: u8(0)}, k, 256))],
    ["hkdfNoSalt", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveBits']).then(k=>s.deriveBits({name:'HKDF', hash:'SHA-256', info: u8(0)}, k, 256))],
    ["hkdfNoHash", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveBits']).then(k=>s.deriveBits({name:'HKDF', salt:u8(0), info: u8(0)}, k, 256))],
    ["hkdfTooLong", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveBits']).then(k=>s.deriveBits({name:'HKDF', hash:'SHA-1', salt:u8(0), info: u8(0)}, k, 255*160+8))],
    ["hkdfMax", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveBits']).then(k=>s.deriveBits({name:'HKDF', hash:'SHA-1', salt:u8(0), info: u8(0)}, k, 255*160)).then(b=>b.byteLength)],
  ],
  "hkdf-2": [
    ["hkdfLen0", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveBits']).then(k=>s.deriveBits({name:'HKDF', hash:'SHA-1', salt:u8(0), info: u8(0)}, k, 0))],
    ["hkdfLen12", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveBits']).then(k=>s.deriveBits({name:'HKDF', hash:'SHA-1', salt:u8(0), info: u8(0)}, k, 12))],
    ["hkdfNull", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveBits']).then(k=>s.deriveBits({name:'HKDF', hash:'SHA-1', salt:u8(0), info: u8(0)}, k))],
    ["hkdfDeriveKeyHmac", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveKey']).then(k=>s.deriveKey({name:'HKDF', hash:'SHA-1', salt:u8(0), info: u8(0)}, k, {name:'HMAC', hash:'SHA-256'}, true, ['sign'])).then(async k=>[show(k), hex(await s.exportKey('raw',k))])],
    ["hkdfDeriveKeyHmacLen", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveKey']).then(k=>s.deriveKey({name:'HKDF', hash:'SHA-1', salt:u8(0), info: u8(0)}, k, {name:'HMAC', hash:'SHA-256', length: 12}, true, ['sign'])).then(async k=>[show(k), hex(await s.exportKey('raw',k))])],
    ["hkdfDeriveKeyAesNoLen", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveKey']).then(k=>s.deriveKey({name:'HKDF', hash:'SHA-1', salt:u8(0), info: u8(0)}, k, {name:'AES-GCM'}, true, ['encrypt']))],
  ],
  "hkdf-3": [
    ["hkdfDeriveKeyAesBad", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveKey']).then(k=>s.deriveKey({name:'HKDF', hash:'SHA-1', salt:u8(0), info: u8(0)}, k, {name:'AES-GCM', length: 100}, true, ['encrypt']))],
    ["hkdfDeriveKeyEc", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveKey']).then(k=>s.deriveKey({name:'HKDF', hash:'SHA-1', salt:u8(0), info: u8(0)}, k, {name:'ECDSA', namedCurve:'P-256'}, true, ['sign']))],
    ["hkdfDeriveKeyHkdf", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveKey']).then(k=>s.deriveKey({name:'HKDF', hash:'SHA-1', salt:u8(0), info: u8(0)}, k, 'HKDF', false, ['deriveBits']))],
    ["hkdfDeriveKeyUsage", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveBits']).then(k=>s.deriveKey({name:'HKDF', hash:'SHA-1', salt:u8(0), info: u8(0)}, k, {name:'AES-GCM', length: 128}, true, ['encrypt']))],
    ["hkdfDeriveKeyBadUsage", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveKey']).then(k=>s.deriveKey({name:'HKDF', hash:'SHA-1', salt:u8(0), info: u8(0)}, k, {name:'AES-GCM', length: 128}, true, ['sign']))],
    ["hkdfDeriveKeyEmptyUsage", async () => s.importKey('raw', u8(22).fill(0x0b), 'HKDF', false, ['deriveKey']).then(k=>s.deriveKey({name:'HKDF', hash:'SHA-1', salt:u8(0), info: u8(0)}, k, {name:'AES-GCM', length: 128}, true, []))],
  ],
  "digest-stream-1": [
    ["dsNames", async () => [typeof crypto.DigestStream, Object.getOwnPropertyNames(crypto.DigestStream.prototype).sort(), new crypto.DigestStream('SHA-256') instanceof WritableStream]],
    ["dsDigest", async () => (async()=>{ const d = new crypto.DigestStream('SHA-256'); const w = d.getWriter(); await w.write(enc.encode('hello ')); await w.write('world'); await w.close(); return [hex(await d.digest), d.bytesWritten]; })()],
    ["dsMd5", async () => (async()=>{ const d = new crypto.DigestStream({name:'MD5'}); const w = d.getWriter(); await w.write(u8([1,2])); await w.close(); return hex(await d.digest); })()],
    ["dsBad", async () => (async()=>{ const d = new crypto.DigestStream('SHA-3'); return 1; })()],
    ["dsCrc", async () => (async()=>{ const d = new crypto.DigestStream('crc32'); const w = d.getWriter(); await w.write(enc.encode('hello')); await w.close(); return hex(await d.digest); })()],
    ["dsWriteNum", async () => (async()=>{ const d = new crypto.DigestStream('SHA-1'); const w = d.getWriter(); await w.write(5); })()],
  ],
  "digest-stream-2": [
    ["dsAbort", async () => (async()=>{ const d = new crypto.DigestStream('SHA-1'); const w = d.getWriter(); const r = d.digest.catch(e=>'rej:'+e); await w.abort('why'); return await r; })()],
    ["dsPipe", async () => (async()=>{ const d = new crypto.DigestStream('SHA-512'); await new Response('piped').body.pipeTo(d); return hex(await d.digest); })()],
    ["dsNoArg", async () => (async()=>{ new crypto.DigestStream(); })()],
    ["ds64", async () => (async()=>{ const d = new crypto.DigestStream('SHA-256'); return typeof d.bytesWritten; })()],
  ],
  "errors-are-rejections-1": [
    ["syncThrowDigest", async () => (()=>{ try { const p = s.digest(null, u8(1)); p.catch(()=>{}); return 'returned'; } catch (e) { return 'threw ' + e.message; } })()],
    ["syncThrowSign", async () => (()=>{ try { const p = s.sign('HMAC', {}, u8(1)); p.catch(()=>{}); return 'returned'; } catch (e) { return 'threw ' + e.message; } })()],
    ["syncThrowImport", async () => (()=>{ try { const p = s.importKey('raw', u8(1), 'HMAC', true, 'x'); p.catch(()=>{}); return 'returned'; } catch (e) { return 'threw ' + e.message; } })()],
    ["syncThrowIv", async () => s.importKey('raw', u8(16), 'AES-GCM', true, ['encrypt']).then(k=>{ try { const p = s.encrypt({name:'AES-GCM', iv:'x'}, k, u8(1)); p.catch(()=>{}); return 'returned'; } catch (e) { return 'threw ' + e.message; } })],
    ["syncThrowUsage", async () => (()=>{ try { const p = s.importKey('raw', u8(1), 'HMAC', true, ['x']); p.catch(()=>{}); return 'returned'; } catch (e) { return 'threw ' + e.message; } })()],
    ["syncThrowGrv", async () => (()=>{ try { crypto.getRandomValues(new Float32Array(1)); return 'returned'; } catch (e) { return 'threw ' + e.message; } })()],
  ],
  "derive-bits-1": [
    ["deriveBitsWrongAlg", async () => s.importKey('raw', u8(22), 'HKDF', false, ['deriveBits']).then(k=>s.deriveBits({name:'PBKDF2', salt:u8(1), iterations:1, hash:'SHA-1'}, k, 8))],
    ["deriveBitsLenStr", async () => s.importKey('raw', u8(22), 'HKDF', false, ['deriveBits']).then(k=>s.deriveBits({name:'HKDF', salt:u8(1), info:u8(1), hash:'SHA-1'}, k, '16'))],
    ["deriveBitsLenFloat", async () => s.importKey('raw', u8(22), 'HKDF', false, ['deriveBits']).then(k=>s.deriveBits({name:'HKDF', salt:u8(1), info:u8(1), hash:'SHA-1'}, k, 16.9))],
    ["deriveBitsLenNaN", async () => s.importKey('raw', u8(22), 'HKDF', false, ['deriveBits']).then(k=>s.deriveBits({name:'HKDF', salt:u8(1), info:u8(1), hash:'SHA-1'}, k, 'abc'))],
    ["deriveBitsHmac", async () => s.importKey('raw', u8(16), {name:'HMAC',hash:'SHA-1'}, true, ['sign']).then(k=>s.deriveBits('HMAC', k, 8))],
  ],
  "rfc-vectors-1": [
    ["rfc8032", async () => s.importKey('raw', unhex('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'), 'Ed25519', true, ['verify']).then(k=>s.verify('Ed25519', k, unhex('e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b'), u8(0)))],
    ["rfc8032sign", async () => s.importKey('jwk', {kty:'OKP', crv:'Ed25519', d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}, 'Ed25519', true, ['sign']).then(k=>s.sign('Ed25519', k, u8(0)))],
    ["rfc7748", async () => Promise.all([s.importKey('jwk', {kty:'OKP', crv:'X25519', d:'dwdtCnMYpX08FsFyUbJmRd9ML4frwJkqsXf7pR25LCo', x:'hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo'}, 'X25519', true, ['deriveBits']), s.importKey('raw', unhex('de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f'), 'X25519', true, [])]).then(([a,b])=>s.deriveBits({name:'X25519', public:b}, a, 256))],
    ["rfc4231", async () => s.importKey('raw', u8(20).fill(0x0b), {name:'HMAC', hash:'SHA-256'}, false, ['sign']).then(k=>s.sign('HMAC', k, enc.encode('Hi There')))],
    ["rfc6070", async () => s.importKey('raw', enc.encode('password'), 'PBKDF2', false, ['deriveBits']).then(k=>s.deriveBits({name:'PBKDF2', hash:'SHA-1', salt: enc.encode('salt'), iterations: 4096}, k, 160))],
  ],
  "round-trips-1": [
    ["rtEcdsaP256", async () => s.generateKey({name:'ECDSA', namedCurve:'P-256'}, true, ['sign','verify']).then(async k=>{ const sig = await s.sign({name:'ECDSA', hash:'SHA-384'}, k.privateKey, enc.encode('m')); return [sig.byteLength, await s.verify({name:'ECDSA', hash:'SHA-384'}, k.publicKey, sig, enc.encode('m')), await s.verify({name:'ECDSA', hash:'SHA-256'}, k.publicKey, sig, enc.encode('m'))]; })],
    ["rtEcdsaP521Jwk", async () => s.generateKey({name:'ECDSA', namedCurve:'P-521'}, true, ['sign','verify']).then(async k=>{ const j = await s.exportKey('jwk', k.privateKey); const back = await s.importKey('jwk', j, {name:'ECDSA', namedCurve:'P-521'}, true, ['sign']); const sig = await s.sign({name:'ECDSA', hash:'SHA-512'}, back, enc.encode('m')); return [Object.keys(j), j.x.length, j.d.length, await s.verify({name:'ECDSA', hash:'SHA-512'}, k.publicKey, sig, enc.encode('m'))]; })],
    ["rtEcdsaPkcs8", async () => s.generateKey({name:'ECDSA', namedCurve:'P-384'}, true, ['sign','verify']).then(async k=>{ const p = await s.exportKey('pkcs8', k.privateKey); const sp = await s.exportKey('spki', k.publicKey); const back = await s.importKey('pkcs8', p, {name:'ECDSA', namedCurve:'P-384'}, true, ['sign']); const pub = await s.importKey('spki', sp, {name:'ECDSA', namedCurve:'P-384'}, true, ['verify']); const sig = await s.sign({name:'ECDSA', hash:'SHA-256'}, back, u8(3)); return [p.byteLength, sp.byteLength, await s.verify({name:'ECDSA', hash:'SHA-256'}, pub, sig, u8(3))]; })],
    ["rtEcdhP521", async () => Promise.all([s.generateKey({name:'ECDH', namedCurve:'P-521'}, true, ['deriveBits']), s.generateKey({name:'ECDH', namedCurve:'P-521'}, true, ['deriveBits'])]).then(async ([a,b])=>{ const x = await s.deriveBits({name:'ECDH', public:b.publicKey}, a.privateKey, null); const y = await s.deriveBits({name:'ECDH', public:a.publicKey}, b.privateKey, 528); return [x.byteLength, hex(x) === hex(y)]; })],
    ["rtEcdhDeriveHmac", async () => Promise.all([s.generateKey({name:'ECDH', namedCurve:'P-384'}, true, ['deriveKey']), s.generateKey({name:'ECDH', namedCurve:'P-384'}, true, ['deriveKey'])]).then(async ([a,b])=>{ const k = await s.deriveKey({name:'ECDH', public:b.publicKey}, a.privateKey, {name:'HMAC', hash:'SHA-256', length: 256}, true, ['sign']); return show(k); })],
    ["rtEcdhDeriveHmacDefault", async () => Promise.all([s.generateKey({name:'ECDH', namedCurve:'P-256'}, true, ['deriveKey']), s.generateKey({name:'ECDH', namedCurve:'P-256'}, true, ['deriveKey'])]).then(async ([a,b])=>s.deriveKey({name:'ECDH', public:b.publicKey}, a.privateKey, {name:'HMAC', hash:'SHA-256'}, true, ['sign']))],
  ],
  "round-trips-2": [
    ["rtRsaPss", async () => s.generateKey({name:'RSA-PSS', modulusLength:1024, publicExponent:u8([1,0,1]), hash:'SHA-256'}, true, ['sign','verify']).then(async k=>{ const sig = await s.sign({name:'RSA-PSS', saltLength: 32}, k.privateKey, u8(9)); return [sig.byteLength, await s.verify({name:'RSA-PSS', saltLength:32}, k.publicKey, sig, u8(9)), await s.verify({name:'RSA-PSS', saltLength:20}, k.publicKey, sig, u8(9))]; })],
    ["rtRsaPkcsJwk", async () => s.generateKey({name:'RSASSA-PKCS1-v1_5', modulusLength:1024, publicExponent:u8([1,0,1]), hash:'SHA-512'}, true, ['sign','verify']).then(async k=>{ const j = await s.exportKey('jwk', k.privateKey); const pj = await s.exportKey('jwk', k.publicKey); const back = await s.importKey('jwk', j, {name:'RSASSA-PKCS1-v1_5', hash:'SHA-512'}, true, ['sign']); const a = await s.sign('RSASSA-PKCS1-v1_5', k.privateKey, u8(1)); const b = await s.sign('RSASSA-PKCS1-v1_5', back, u8(1)); return [Object.keys(j), Object.keys(pj), j.alg, hex(a) === hex(b), await s.verify('RSASSA-PKCS1-v1_5', k.publicKey, a, u8(1))]; })],
    ["rtRsaOaep", async () => s.generateKey({name:'RSA-OAEP', modulusLength:1024, publicExponent:u8([1,0,1]), hash:'SHA-384'}, true, ['encrypt','decrypt']).then(async k=>{ const c = await s.encrypt({name:'RSA-OAEP', label: u8([7])}, k.publicKey, enc.encode('hello')); return [c.byteLength, new TextDecoder().decode(await s.decrypt({name:'RSA-OAEP', label: u8([7])}, k.privateKey, c))]; })],
    ["rtRsaOaepWrap", async () => Promise.all([s.generateKey({name:'RSA-OAEP', modulusLength:2048, publicExponent:u8([1,0,1]), hash:'SHA-256'}, true, ['wrapKey','unwrapKey']), s.importKey('raw', u8(32).fill(4), 'AES-CTR', true, ['encrypt','decrypt'])]).then(async ([w,k])=>{ const wrapped = await s.wrapKey('raw', k, w.publicKey, 'RSA-OAEP'); const back = await s.unwrapKey('raw', wrapped, w.privateKey, {name:'RSA-OAEP'}, 'AES-CTR', true, ['decrypt']); return [wrapped.byteLength, show(back), hex(await s.exportKey('raw', back))]; })],
    ["rtRsaOaepWrapJwk", async () => Promise.all([s.generateKey({name:'RSA-OAEP', modulusLength:2048, publicExponent:u8([1,0,1]), hash:'SHA-1'}, true, ['wrapKey','unwrapKey']), s.importKey('raw', u8(16).fill(4), {name:'HMAC', hash:'SHA-1'}, true, ['sign'])]).then(async ([w,k])=>{ const wrapped = await s.wrapKey('jwk', k, w.publicKey, 'RSA-OAEP'); const back = await s.unwrapKey('jwk', wrapped, w.privateKey, 'RSA-OAEP', {name:'HMAC', hash:'SHA-1'}, false, ['sign']); return show(back); })],
    ["rtEd25519", async () => s.generateKey('Ed25519', true, ['sign','verify']).then(async k=>{ const sig = await s.sign('Ed25519', k.privateKey, u8(5)); const j = await s.exportKey('jwk', k.privateKey); const back = await s.importKey('jwk', j, 'Ed25519', true, ['sign']); const sig2 = await s.sign('Ed25519', back, u8(5)); const raw = await s.exportKey('raw', k.publicKey); return [hex(sig) === hex(sig2), await s.verify('Ed25519', k.publicKey, sig, u8(5)), raw.byteLength, Object.keys(j)]; })],
  ],
  "round-trips-3": [
    ["rtX25519", async () => Promise.all([s.generateKey('X25519', true, ['deriveBits']), s.generateKey('X25519', true, ['deriveBits'])]).then(async ([a,b])=>{ const x = await s.deriveBits({name:'X25519', public:b.publicKey}, a.privateKey, 256); const y = await s.deriveBits({name:'X25519', public:a.publicKey}, b.privateKey, 250); const p = await s.exportKey('pkcs8', a.privateKey); return [hex(x).slice(0, 62) === hex(y).slice(0, 62), y.byteLength, p.byteLength]; })],
    ["rtAesKw", async () => Promise.all([s.generateKey({name:'AES-KW', length:256}, true, ['wrapKey','unwrapKey']), s.generateKey({name:'AES-GCM', length:192}, true, ['encrypt'])]).then(async ([w,k])=>{ const wrapped = await s.wrapKey('raw', k, w, 'AES-KW'); const back = await s.unwrapKey('raw', wrapped, w, 'AES-KW', {name:'AES-GCM'}, true, ['encrypt','decrypt']); return [wrapped.byteLength, show(back), hex(await s.exportKey('raw', back)) === hex(await s.exportKey('raw', k))]; })],
    ["rtAesCbcGen", async () => s.generateKey({name:'AES-CBC', length:256}, false, ['encrypt','decrypt']).then(async k=>{ const c = await s.encrypt({name:'AES-CBC', iv:u8(16)}, k, u8(33)); const p = await s.decrypt({name:'AES-CBC', iv:u8(16)}, k, c); return [c.byteLength, p.byteLength, show(k)]; })],
    ["rtAesCtrRound", async () => s.importKey('raw', u8(16).fill(8), 'AES-CTR', true, ['encrypt','decrypt']).then(async k=>{ const c = await s.encrypt({name:'AES-CTR', counter:u8(16).fill(0xfe), length:4}, k, u8(200)); return [hex(c).slice(0, 64), hex(await s.decrypt({name:'AES-CTR', counter:u8(16).fill(0xfe), length:4}, k, c)) === hex(u8(200))]; })],
    ["rtPbkdfHmac", async () => s.importKey('raw', enc.encode('pw'), 'PBKDF2', false, ['deriveKey']).then(k=>s.deriveKey({name:'PBKDF2', hash:'SHA-512', salt:u8(16), iterations:10}, k, {name:'HMAC', hash:'SHA-384'}, true, ['verify'])).then(async k=>[show(k), hex(await s.exportKey('raw', k))])],
    ["rtHkdfAesKw", async () => s.importKey('raw', u8(32).fill(1), 'HKDF', false, ['deriveKey']).then(k=>s.deriveKey({name:'HKDF', hash:'SHA-384', salt:u8(4), info:enc.encode('kw')}, k, {name:'AES-KW', length:192}, true, ['wrapKey'])).then(async k=>[show(k), await s.exportKey('jwk', k)])],
  ],
  "round-trips-4": [
    ["rtHmacGenJwk", async () => s.generateKey({name:'HMAC', hash:'SHA-1'}, true, ['sign','verify']).then(async k=>{ const j = await s.exportKey('jwk', k); const back = await s.importKey('jwk', j, {name:'HMAC', hash:'SHA-1'}, true, ['verify']); const sig = await s.sign('HMAC', k, u8(2)); return [Object.keys(j), j.alg, await s.verify('HMAC', back, sig, u8(2)), show(back)]; })],
    ["rtHmacJwkAlgBad", async () => s.importKey('jwk', {kty:'oct', k:'AQID', alg:'HS512'}, {name:'HMAC', hash:'SHA-1'}, true, ['verify'])],
    ["rtHmacJwkKty", async () => s.importKey('jwk', {kty:'RSA', k:'AQID'}, {name:'HMAC', hash:'SHA-1'}, true, ['verify'])],
    ["rtHmacJwkNoK", async () => s.importKey('jwk', {kty:'oct'}, {name:'HMAC', hash:'SHA-1'}, true, ['verify'])],
    ["rtHmacJwkLowerHash", async () => s.importKey('jwk', {kty:'oct', k:'AQID', alg:'HS1'}, {name:'HMAC', hash:'sha-1'}, true, ['verify'])],
    ["rtDigestMd5", async () => s.digest({name:'md5'}, enc.encode('abc'))],
  ],
  "round-trips-5": [
    ["rtDigestAll", async () => Promise.all(['SHA-1','SHA-256','SHA-384','SHA-512'].map(h=>s.digest(h, enc.encode('cellgate')))).then(a=>a.map(hex))],
    ["rtGenUsagesOrder", async () => s.generateKey({name:'AES-GCM', length:128}, true, ['unwrapKey','decrypt','wrapKey','encrypt','decrypt'])],
    ["rtGenExtractableFalse", async () => s.generateKey({name:'RSA-OAEP', modulusLength:1024, publicExponent:u8([1,0,1]), hash:'SHA-256'}, false, ['encrypt','unwrapKey']).then(async k=>[show(k), await s.exportKey('spki', k.publicKey).then(b=>b.byteLength)])],
    ["rtAlgMutation", async () => s.generateKey({name:'RSA-PSS', modulusLength:1024, publicExponent:u8([1,0,1]), hash:'SHA-256'}, true, ['sign']).then(k=>{ const a = k.privateKey.algorithm; a.publicExponent[0] = 9; a.hash.name = 'x'; const u = k.privateKey.usages; u.push('verify'); return show(k.privateKey); })],
    ["rtImportCopies", async () => (async()=>{ const raw = u8(16).fill(1); const k = await s.importKey('raw', raw, 'AES-GCM', true, ['encrypt']); raw.fill(2); return hex(await s.exportKey('raw', k)); })()],
    ["rtEcdhPubJwkOps", async () => s.importKey('jwk', {kty:'EC', crv:'P-256', use:'enc', key_ops:['deriveBits'], x:KEYS['ec_P-256'].jwk.x, y:KEYS['ec_P-256'].jwk.y}, {name:'ECDH', namedCurve:'P-256'}, true, [])],
  ],
  "round-trips-6": [
    ["rtX25519JwkPubOps", async () => s.importKey('jwk', {kty:'OKP', crv:'X25519', key_ops:[], x:KEYS.x.jwk.x}, 'X25519', true, [])],
    ["rtEcdhEcdsaPub", async () => Promise.all([imp('pkcs8', KEYS.ecdh2.pkcs8, {name:'ECDH', namedCurve:'P-256'}, true, ['deriveBits']), s.generateKey('X25519', true, ['deriveBits'])]).then(([a,b])=>s.deriveBits({name:'ECDH', public:b.publicKey}, a, 256))],
    ["rtEcdhSecretPub", async () => Promise.all([imp('pkcs8', KEYS.ecdh2.pkcs8, {name:'ECDH', namedCurve:'P-256'}, true, ['deriveBits']), s.importKey('raw', u8(16), 'AES-GCM', true, ['encrypt'])]).then(([a,b])=>s.deriveBits({name:'ECDH', public:b}, a, 256))],
  ],
  "okp-pkcs8-of-the-other-curve": [
    ["edAsX", async () => imp('pkcs8', KEYS.ed.pkcs8, 'X25519', true, ['deriveBits'])],
    ["xAsEd", async () => imp('spki', KEYS.x.spki, 'Ed25519', true, ['verify'])],
  ],
  "pbkdf2-iteration-limit": [
    ["pbkdfBig", async () => s.importKey('raw', enc.encode('pw'), 'PBKDF2', false, ['deriveBits']).then(k=>s.deriveBits({name:'PBKDF2', hash:'SHA-256', salt:u8(8), iterations: 100001}, k, 256))],
  ],
  // When a SubtleCrypto promise settles against a microtask queued right after the call (WPT's
  // "promise resolved too early"): the order of the two callbacks, for success and for failure.
  "settlement-order": [
    ["importKey", async () => order(() => s.importKey('raw', u8(16), 'AES-GCM', true, ['encrypt']))],
    ["importKeyEmptyUsages", async () => order(() => s.importKey('raw', u8(16), 'AES-GCM', true, []))],
    ["exportKey", async () => s.importKey('raw', u8(16), 'AES-GCM', true, ['encrypt']).then(k => order(() => s.exportKey('raw', k)))],
    ["digest", async () => order(() => s.digest('SHA-256', u8([1])))],
    ["digestBadAlg", async () => order(() => s.digest('SHA-7', u8([1])))],
    ["sign", async () => s.importKey('raw', u8(16), {name:'HMAC', hash:'SHA-256'}, false, ['sign']).then(k => order(() => s.sign('HMAC', k, u8([1]))))],
    ["generateKey", async () => order(() => s.generateKey({name:'AES-GCM', length:128}, false, ['encrypt']))],
  ],
};

// Calls op, then queues a microtask: which of the op's settlement and that microtask runs first.
function order(op) {
  const seen = [];
  const p = op().then(() => seen.push('settled'), () => seen.push('rejected'));
  Promise.resolve().then(() => seen.push('microtask'));
  return p.then(() => seen.join(' then '));
}

export default {
  async fetch(request) {
    const name = new URL(request.url).pathname.split('/').pop();
    const probes = CASES[name];
    if (!probes) return new Response('no case ' + name, { status: 404 });
    const out = [];
    for (const [label, f] of probes) out.push(JSON.stringify([label, await probe(f)]));
    return new Response(out.join('\n') + '\n', { headers: { 'content-type': 'text/plain' } });
  },
};
