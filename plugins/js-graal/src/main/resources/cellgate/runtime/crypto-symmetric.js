// Secret-key algorithms of crypto.subtle: AES-CTR, AES-CBC, AES-GCM, AES-KW, HMAC, PBKDF2 and
// HKDF, with workerd's validation order and messages (its aes.c++, hmac.c++, pbkdf2.c++,
// hkdf.c++). Key bytes live in the CryptoKey; the JDK does the cryptography (WebCryptoHost).
(function (host, internal) {
  'use strict';
  const P = internal.cryptoParams;
  const { U, dom, W, ab, dataError: data, operationError: op } = P;
  const K = internal.cryptoKeys;
  const PBKDF2_MAX_ITERATIONS = 100000;

  function secretKey(name, alg, kind, bytes, extractable, usages, extra) {
    return K.create(Object.assign({ name, type: 'secret', extractable, usages, alg, kind, material: bytes }, extra));
  }
  const material = (key) => K.state(key).material;

  // JWK "key_ops": no duplicates, and every requested usage listed (workerd's AES rules).
  function checkKeyOps(ops, usages) {
    if (ops === undefined) return;
    const sorted = ops.slice().sort();
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i] === sorted[i - 1]) throw data('Symmetric "jwk" key contains duplicate value "' + sorted[i] + '", in "key_op".');
    }
    for (const u of usages) if (!sorted.includes(u)) throw data('"jwk" key missing usage "' + u + '", in "key_ops".');
  }

  // ---- AES ----

  const isAes = (name) => name.startsWith('AES-');
  const aesMode = (name) => name.slice(4);
  const aesUsages = (name, context, usages) =>
    P.usageSet(name, context, usages, U.wrapKey | U.unwrapKey | (name === 'AES-KW' ? 0 : U.encrypt | U.decrypt));

  function generateAes(name, alg, extractable, usages) {
    const set = aesUsages(name, 'generate', usages);
    if (alg.length === undefined) throw new TypeError('Missing field "length" in "algorithm".');
    if (alg.length !== 128 && alg.length !== 192 && alg.length !== 256) {
      throw op('Generated AES key length must be 128, 192, or 256 bits but requested ' + alg.length + '.');
    }
    const bytes = new Uint8Array(new ArrayBuffer(host.randomBytes(alg.length / 8))).slice();
    return secretKey(name, { name, length: alg.length }, 'aes', bytes, extractable, set);
  }

  function importAes(name, format, input, alg, extractable, usages) {
    const set = aesUsages(name, 'secret', usages);
    let bytes;
    const badLength = (n) => data('Imported AES key length must be 128, 192, or 256 bits but provided ' + n * 8 + '.');
    const validLength = (n) => n === 16 || n === 24 || n === 32;
    if (format === 'raw') {
      bytes = input.bytes;
      if (!validLength(bytes.length)) throw badLength(bytes.length);
    } else if (format === 'jwk') {
      const jwk = input.jwk;
      if (jwk.kty !== 'oct') {
        throw data('Symmetric "jwk" key import requires a JSON Web Key with Key Type parameter "kty" equal to "oct" (encountered "' + jwk.kty + '").');
      }
      bytes = P.fromBase64Url(jwk.k);
      if (bytes === null) throw data('Symmetric "jwk" key import requires a base64Url encoding of the key.');
      if (!validLength(bytes.length)) throw badLength(bytes.length);
      const expected = 'A' + bytes.length * 8 + aesMode(name);
      if (jwk.alg !== undefined && jwk.alg !== expected) {
        throw data('Symmetric "jwk" key contains invalid "alg" value "' + jwk.alg + '", expected "' + expected + '".');
      }
      if (usages.length !== 0 && jwk.use !== undefined && jwk.use !== 'enc') {
        throw data('Symmetric "jwk" key must have a "use" of "enc", not "' + jwk.use + '".');
      }
      checkKeyOps(jwk.key_ops, usages);
    } else {
      throw dom('Unrecognized key import format "' + format + '".', 'NotSupportedError');
    }
    return secretKey(name, { name, length: bytes.length * 8 }, 'aes', bytes, extractable, set);
  }

  function exportAes(key, format) {
    const s = K.state(key);
    if (format !== 'raw' && format !== 'jwk') {
      throw dom(s.name + ' key only supports exporting "raw" & "jwk", not "' + format + '".', 'NotSupportedError');
    }
    if (format === 'raw') return s.material.slice().buffer;
    return { kty: 'oct', key_ops: P.usageNames(s.usages), alg: 'A' + s.material.length * 8 + aesMode(s.name), ext: true,
      k: P.toBase64Url(s.material) };
  }

  const GCM_TAGS = [32, 64, 96, 104, 112, 120, 128];
  function gcmTag(alg) {
    const t = alg.tagLength === undefined ? 128 : alg.tagLength;
    if (!GCM_TAGS.includes(t)) throw op('Invalid AES-GCM tag length ' + t + '.');
    return t;
  }
  function requireIv(alg) {
    if (alg.iv === undefined) throw new TypeError('Missing field "iv" in "algorithm".');
    return alg.iv;
  }

  function aesCipher(key, alg, input, encrypt) {
    const s = K.state(key);
    if (s.name === 'AES-GCM') {
      const iv = requireIv(alg);
      if (iv.length === 0) throw op('AES-GCM IV must not be empty.');
      const tag = gcmTag(alg);
      if (!encrypt && input.length < tag / 8) {
        throw op('Ciphertext length of ' + input.length * 8 + ' bits must be greater than or equal to the size of the AES-GCM tag length of '
          + tag + ' bits.');
      }
      return P.fromHost(W.aesGcm(encrypt, ab(s.material), ab(iv), ab(alg.additionalData || new Uint8Array(0)), tag, ab(input)));
    }
    if (s.name === 'AES-CBC') {
      const iv = requireIv(alg);
      if (iv.length !== 16) throw op('AES-CBC IV must be 16 bytes long (provided ' + iv.length + (encrypt ? ' bytes).' : ').'));
      return P.fromHost(W.aesCbc(encrypt, ab(s.material), ab(iv), ab(input)));
    }
    if (s.name === 'AES-CTR') {
      if (alg.counter === undefined) throw new TypeError('Missing "counter" member in "algorithm".');
      if (alg.counter.length !== 16) throw op('Counter must have length of 16 bytes (provided ' + alg.counter.length + ').');
      if (alg.length === undefined) throw new TypeError('Missing "length" member in "algorithm".');
      if (!(alg.length > 0 && alg.length <= 128)) throw op('Invalid counter of ' + alg.length + ' bits length provided.');
      return P.fromHost(W.aesCtr(ab(s.material), ab(alg.counter), alg.length, ab(input)));
    }
    throw dom('The ' + (encrypt ? 'encrypt' : 'decrypt') + ' operation is not implemented for "' + s.name + '".', 'NotSupportedError');
  }

  function wrapKw(key, input) {
    if (input.length % 8 !== 0) {
      throw op('Unwrapped key bit length must be a multiple of 64 bits but unwrapped key has a length of ' + input.length * 8 + ' bits.');
    }
    if (input.length < 16) {
      throw op('Unwrapped key has length ' + input.length + ' bytes but it should be greater than or equal to 16 and less than or equal to 18446744073709551607');
    }
    return P.fromHost(W.aesKw(true, ab(material(key)), ab(input)));
  }
  function unwrapKw(key, input) {
    if (input.length % 8 !== 0) {
      throw op('Provided a wrapped key to unwrap that is ' + input.length * 8 + " bits which isn't a multiple of 64 bits.");
    }
    if (input.length < 24) {
      throw op('Provided a wrapped key to unwrap this is ' + input.length * 8 + ' bits that is less than the minimal length of 192 bits.');
    }
    return P.fromHost(W.aesKw(false, ab(material(key)), ab(input)));
  }

  // ---- HMAC ----

  // The key's bits beyond `length` are zero (workerd, like Chrome, clears the last byte's low bits).
  function clearTrailingBits(bytes, length) {
    const extra = length - (bytes.length * 8 - 8);
    if (extra > 0 && extra < 8) bytes[bytes.length - 1] &= (0xff00 >> extra) & 0xff;
    return bytes;
  }
  const hmacAlgorithm = (hash, length) => ({ name: 'HMAC', hash: { name: hash }, length: length & 0xffff });

  function generateHmac(name, alg, extractable, usages) {
    const hash = P.digestName(P.requireHash(alg));
    const set = P.usageSet(name, 'generate', usages, U.sign | U.verify);
    const length = alg.length === undefined ? P.DIGEST_BLOCK[hash] * 8 : alg.length;
    if (!(length > 0)) throw op('HMAC key length must be a non-zero unsigned long integer (requested ' + length + ').');
    const bytes = new Uint8Array(new ArrayBuffer(host.randomBytes(Math.ceil(length / 8)))).slice();
    return secretKey(name, hmacAlgorithm(hash, length), 'hmac', clearTrailingBits(bytes, length), extractable, set, { hash });
  }

  function importHmac(name, format, input, alg, extractable, usages) {
    const set = P.usageSet(name, 'secret', usages, U.sign | U.verify);
    const givenHash = P.requireHash(alg);
    let bytes;
    if (format === 'raw') {
      bytes = input.bytes;
    } else if (format === 'jwk') {
      const jwk = input.jwk;
      if (jwk.kty !== 'oct') {
        throw data('HMAC "jwk" key import requires a JSON Web Key with Key Type parameter ("kty") equal to "oct" (encountered "' + jwk.kty + '").');
      }
      bytes = P.fromBase64Url(jwk.k);
      if (bytes === null) throw data('HMAC "jwk" key import requires a base64Url encoding of the key');
      if (jwk.alg !== undefined) {
        if (!givenHash.startsWith('SHA-')) {
          throw dom('Unrecognized or unimplemented hash algorithm requested' + jwk.alg, 'NotSupportedError');
        }
        const expected = 'HS' + givenHash.slice(4);
        if (jwk.alg !== expected) {
          throw data('HMAC "jwk" key import specifies "alg" that is incompatible with the hash name (encountered "' + jwk.alg
            + '", expected "' + expected + '").');
        }
      }
    } else {
      throw dom('Unrecognized key import format "' + format + '".', 'NotSupportedError');
    }
    const bits = bytes.length * 8;
    const length = alg.length === undefined ? bits : alg.length;
    if (length <= 0 || length > bits || length <= bits - 8) {
      throw data('Imported HMAC key length (' + length + ') must be a non-zero value up to 7 bits less than, and no greater than, the bit length of the raw key data ('
        + bits + ').');
    }
    const hash = P.digestName(givenHash);
    return secretKey(name, hmacAlgorithm(hash, length), 'hmac', clearTrailingBits(bytes, length), extractable, set, { hash });
  }

  function exportHmac(key, format) {
    const s = K.state(key);
    if (format !== 'raw' && format !== 'jwk') throw dom('Unimplemented key export format "' + format + '".', 'NotSupportedError');
    if (format === 'raw') return s.material.slice().buffer;
    if (!s.hash.startsWith('SHA-')) {
      throw dom('Unimplemented JWK key export format for key algorithm "' + s.hash + '".', 'NotSupportedError');
    }
    return { kty: 'oct', key_ops: P.usageNames(s.usages), alg: 'HS' + s.hash.slice(4), ext: true, k: P.toBase64Url(s.material) };
  }

  // ---- PBKDF2 and HKDF ----

  function importKdf(name, format, input, alg, extractable, usages) {
    const set = P.usageSet(name, 'secret', usages, U.DERIVE);
    if (extractable) throw dom(name + ' key cannot be extractable.', 'SyntaxError');
    if (format !== 'raw') {
      throw dom(name + ' key must be imported in "raw" format (requested "' + format + '")' + (name === 'PBKDF2' ? '.' : ''), 'NotSupportedError');
    }
    return secretKey(name, { name }, 'key', input.bytes, extractable, set);
  }

  function deriveKdf(key, alg, length) {
    const s = K.state(key);
    const hash = P.digestName(P.requireHash(alg));
    if (alg.salt === undefined) throw new TypeError('Missing field "salt" in "algorithm".');
    if (s.name === 'HKDF') {
      if (alg.info === undefined) throw new TypeError('Missing field "info" in "algorithm".');
    } else if (alg.iterations === undefined) {
      throw new TypeError('Missing field "iterations" in "algorithm".');
    }
    if (length === null) throw op(s.name + ' cannot derive a key with null length.');
    if (length % 8 !== 0) throw op(s.name + ' requires a derived key length that is a multiple of eight (requested ' + length + ').');
    if (s.name === 'HKDF') return P.fromHost(W.hkdf(hash, ab(s.material), ab(alg.salt), ab(alg.info), length / 8));
    if (!(alg.iterations > 0)) throw op('PBKDF2 requires a positive iteration count (requested ' + alg.iterations + ').');
    // Cloudflare's limit (workerd's limit enforcer; miniflare sets none): the host call cannot be
    // interrupted by the CPU limit, so an unbounded count could hold the executor for seconds.
    if (alg.iterations > PBKDF2_MAX_ITERATIONS) {
      throw dom('Pbkdf2 failed: iteration counts above ' + PBKDF2_MAX_ITERATIONS + ' are not supported (requested ' + alg.iterations + ').',
        'NotSupportedError');
    }
    return P.fromHost(W.pbkdf2(hash, ab(s.material), ab(alg.salt), alg.iterations, length / 8));
  }

  internal.cryptoSymmetric = {
    generateKey(name, alg, extractable, usages) {
      return isAes(name) ? generateAes(name, alg, extractable, usages) : generateHmac(name, alg, extractable, usages);
    },
    importKey(name, format, input, alg, extractable, usages) {
      if (isAes(name)) return importAes(name, format, input, alg, extractable, usages);
      if (name === 'HMAC') return importHmac(name, format, input, alg, extractable, usages);
      return importKdf(name, format, input, alg, extractable, usages);
    },
    exportKey(key, format) {
      const s = K.state(key);
      if (s.kind === 'aes') return exportAes(key, format);
      if (s.kind === 'hmac') return exportHmac(key, format);
      throw dom('Unrecognized or unsupported export of "' + s.name + '" requested.', 'NotSupportedError');
    },
    encrypt: (key, alg, input) => aesCipher(key, alg, input, true),
    decrypt: (key, alg, input) => aesCipher(key, alg, input, false),
    wrapKey: (key, alg, input) => (K.state(key).name === 'AES-KW' ? wrapKw(key, input) : aesCipher(key, alg, input, true)),
    unwrapKey: (key, alg, input) => (K.state(key).name === 'AES-KW' ? unwrapKw(key, input) : aesCipher(key, alg, input, false)),
    sign(key, alg, input) {
      const s = K.state(key);
      return P.fromHost(W.hmac(s.hash, ab(s.material), ab(input)));
    },
    verify(key, alg, signature, input) {
      const s = K.state(key);
      return W.hmacVerify(s.hash, ab(s.material), ab(signature), ab(input));
    },
    deriveBits: deriveKdf,
  };
});
