// RSA algorithms of crypto.subtle: RSASSA-PKCS1-v1_5, RSA-PSS and RSA-OAEP, with workerd's checks
// and messages (its rsa.c++ and keys.c++), as workerd behaves at compatibility dates with
// strict_crypto_checks on (since 2023-08-01).
(function (host, internal) {
  'use strict';
  const P = internal.cryptoParams;
  const A = internal.cryptoAsymmetric;
  const { U, dom, W, ab, dataError: data, operationError: op } = P;
  const K = internal.cryptoKeys;

  const allowedUsages = (name) => (name === 'RSA-OAEP' ? U.encrypt | U.decrypt | U.wrapKey | U.unwrapKey : U.sign | U.verify);

  // The exponent as workerd reads it: an unsigned 32-bit value, or null when it is larger.
  function exponentValue(bytes) {
    let v = 0;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes.length - i - 1 >= 4) {
        if (bytes[i] !== 0) return null;
      } else {
        v = v * 256 + bytes[i];
      }
    }
    return v;
  }
  function validateParams(modulusLength, exponent, imported) {
    if (!(modulusLength % 8 === 0 && modulusLength >= 256 && modulusLength <= 16384)) {
      throw op('The modulus length must be a multiple of 8 and between 256 and 16k, but ' + modulusLength + ' was requested.');
    }
    const v = exponentValue(exponent);
    if (v === null) throw op('The "publicExponent" must be either 3 or 65537, but got a number larger than 2^32.');
    if (!imported && v !== 3 && v !== 65537) throw op('The "publicExponent" must be either 3 or 65537, but got ' + v + '.');
    if (imported && v !== 3 && v !== 17 && v !== 37 && v !== 65537) throw op('Imported RSA key has invalid publicExponent ' + v + '.');
  }

  function rsaState(name, hash, modulusLength, exponent) {
    return { name, hash, modulusBytes: modulusLength / 8, kind: 'rsa',
      alg: { name, modulusLength: modulusLength & 0xffff, publicExponent: exponent, hash: { name: hash } } };
  }

  function generateRsa(name, alg, extractable, usages) {
    if (alg.publicExponent === undefined) throw new TypeError('Missing field "publicExponent" in "algorithm".');
    const givenHash = P.requireHash(alg);
    if (alg.modulusLength === undefined) throw new TypeError('Missing field "modulusLength" in "algorithm".');
    if (!(alg.modulusLength > 0)) throw op('modulusLength must be greater than zero (requested ' + alg.modulusLength + ').');
    const hash = P.digestName(givenHash);
    const set = P.usageSet(name, 'generate', usages, allowedUsages(name));
    validateParams(alg.modulusLength, alg.publicExponent, false);
    if (alg.modulusLength & 127) throw op("Can't generate key: RSA key size is required to be a multiple of 128");
    const handle = P.checked(W.generateRsa(alg.modulusLength, ab(alg.publicExponent)));
    return A.pair(rsaState(name, hash, alg.modulusLength, alg.publicExponent), handle, extractable, set & U.PRIVATE, set & U.PUBLIC);
  }

  const JWK_ALGS = {
    'RSASSA-PKCS1-v1_5': { RS1: 'SHA-1', RS256: 'SHA-256', RS384: 'SHA-384', RS512: 'SHA-512' },
    'RSA-PSS': { PS1: 'SHA-1', PS256: 'SHA-256', PS384: 'SHA-384', PS512: 'SHA-512' },
    'RSA-OAEP': { 'RSA-OAEP': 'SHA-1', 'RSA-OAEP-256': 'SHA-256', 'RSA-OAEP-384': 'SHA-384', 'RSA-OAEP-512': 'SHA-512' },
  };
  const readRsaJwk = (givenName, hash) => (jwk) => {
    if (jwk.kty !== 'RSA') {
      throw data('RSASSA-PKCS1-v1_5 "jwk" key import requires a JSON Web Key with Key Type parameter "kty" ("' + jwk.kty + '") equal to "RSA".');
    }
    if (jwk.alg !== undefined) {
      const algs = JWK_ALGS[givenName];
      if (algs === undefined) throw dom('Unrecognized RSA variant "' + givenName + '".', 'NotSupportedError');
      const algHash = algs[jwk.alg];
      if (algHash === undefined) {
        throw dom('Unrecognized or unimplemented algorithm "' + jwk.alg + '" listed in JSON Web Key Algorithm parameter.', 'NotSupportedError');
      }
      if (algHash !== hash) {
        throw data('JSON Web Key Algorithm parameter "alg" ("' + jwk.alg + '") does not match requested hash algorithm "' + jwk.alg + '".');
      }
    }
    const part = (m, message) => {
      const b = P.fromBase64Url(jwk[m]);
      if (b === null) throw data('Invalid RSA ' + message);
      return b;
    };
    const n = part('n', 'key in JSON Web Key; missing or invalid Modulus parameter ("n").');
    const e = part('e', 'key in JSON Web Key; missing or invalid Exponent parameter ("e").');
    let crt = [null, null, null, null, null];
    let d = null;
    if (jwk.d !== undefined) {
      d = part('d', 'key in JSON Web Key; missing or invalid Private Exponent parameter ("d").');
      const present = ['p', 'q', 'dp', 'dq', 'qi'].filter((m) => jwk[m] !== undefined).length;
      if (present === 5) {
        crt = [part('p', 'key in JSON Web Key; invalid First Prime Factor parameter ("p").'),
          part('q', 'key in JSON Web Key; invalid Second Prime Factor parameter ("q").'),
          part('dp', 'key in JSON Web Key; invalid First Factor CRT Exponent parameter ("dp").'),
          part('dq', 'key in JSON Web Key; invalid Second Factor CRT Exponent parameter ("dq").'),
          part('qi', 'key in JSON Web Key; invalid First CRT Coefficient parameter ("qi").')];
      } else if (present !== 0) {
        throw data('Invalid RSA private key in JSON Web Key; if one Prime Factor or CRT Exponent/Coefficient parameter is present, then they must all be present ("p", "q", "dp", "dq", "qi").');
      }
    }
    return P.checked(W.importRsaJwk(ab(n), ab(e), ab(d), ...crt.map(ab)));
  };

  function importRsa(name, format, input, alg, extractable, usages) {
    const givenHash = P.requireHash(alg);
    const hash = P.digestName(givenHash);
    const r = A.importAsymmetric(name, format, input, extractable, usages, readRsaJwk(alg.name, hash), allowedUsages(name));
    if (W.keyKind(r.handle) !== 'RSA') throw data('Input was not an RSA key.');
    const info = P.bytesFromHost(W.rsaInfo(r.handle));
    const modulusLength = ((info[0] << 24) | (info[1] << 16) | (info[2] << 8) | info[3]) >>> 0;
    const exponent = info.slice(4);
    validateParams(modulusLength, exponent, true);
    return A.newKey(Object.assign(rsaState(name, hash, modulusLength, exponent),
      { type: r.type, extractable, usages: r.usages, material: r.handle }));
  }

  const MEMBERS_PRIVATE = ['d', 'n', 'e', 'p', 'q', 'dp', 'dq', 'qi'];
  function jwkAlg(s) {
    if (!s.hash.startsWith('SHA')) throw dom('JWK export not supported for hash algorithm "' + s.hash + '".', 'NotSupportedError');
    const bits = s.hash.slice(4);
    if (s.name === 'RSA-OAEP') return s.hash === 'SHA-1' ? 'RSA-OAEP' : 'RSA-OAEP-' + bits;
    return (s.name === 'RSA-PSS' ? 'PS' : 'RS') + bits;
  }
  const RSA_EXPORT = {
    jwk(s) {
      const alg = jwkAlg(s);
      const parts = P.bytesFromHost(W.exportKey(s.material, 'jwk'));
      const values = [];
      for (let i = 0; i < parts.length;) {
        const len = ((parts[i] << 24) | (parts[i + 1] << 16) | (parts[i + 2] << 8) | parts[i + 3]) >>> 0;
        values.push(P.toBase64Url(parts.subarray(i + 4, i + 4 + len)));
        i += 4 + len;
      }
      const names = values.length === 2 ? ['n', 'e'] : MEMBERS_PRIVATE.slice(0, values.length);
      const members = { kty: 'RSA', alg };
      names.forEach((m, i) => { members[m] = values[i]; });
      return members;
    },
    raw(s) { throw dom('Cannot export "' + s.name + '" in "raw" format.', 'InvalidAccessError'); },
  };

  function pssSalt(alg, missingIsTypeError) {
    if (alg.saltLength === undefined) {
      const m = 'Failed to provide salt for RSA-PSS key operation which requires a salt';
      throw missingIsTypeError ? new TypeError(m) : data(m);
    }
    if (alg.saltLength < 0) throw data('SaltLength for RSA-PSS must be non-negative (provided ' + alg.saltLength + ').');
    return alg.saltLength;
  }

  function oaep(key, alg, input, encrypt) {
    const s = K.state(key);
    if (s.name !== 'RSA-OAEP') {
      throw dom('The ' + (encrypt ? 'encrypt' : 'decrypt') + ' operation is not implemented for "' + s.name + '".', 'NotSupportedError');
    }
    if (encrypt && s.type !== 'public') {
      throw dom('Encryption/key wrapping only works with public keys, not "' + s.type + '".', 'InvalidAccessError');
    }
    if (!encrypt && s.type !== 'private') {
      throw dom('Decryption/key unwrapping only works with private keys, not "' + s.type + '".', 'InvalidAccessError');
    }
    return P.fromHost(W.rsaOaep(s.material, encrypt, s.hash, ab(alg.label), ab(input)));
  }

  internal.cryptoRsa = {
    generateKey: generateRsa,
    importKey: importRsa,
    exportKey: (key, format) => A.exportAsymmetric(key, format, RSA_EXPORT),
    sign(key, alg, input) {
      const s = K.state(key);
      if (s.type !== 'private') throw dom('Asymmetric signing requires a private key.', 'InvalidAccessError');
      const hashSize = P.DIGEST_SIZE[s.hash];
      let salt = 0;
      if (s.name === 'RSASSA-PKCS1-v1_5') {
        if (hashSize + 32 > s.modulusBytes) {
          throw op('key too small for signing with given digest, need at least ' + 8 * (hashSize + 32) + 'bits.');
        }
      } else {
        salt = pssSalt(alg, false);
        if (hashSize + 2 > s.modulusBytes) throw op('key too small for signing with given digest');
        if (salt > s.modulusBytes - hashSize - 2) throw op('key too small for signing with given digest and salt length');
      }
      return P.fromHost(W.rsaSign(s.material, s.name === 'RSA-PSS' ? 'PSS' : 'PKCS1', s.hash, salt, ab(input)));
    },
    verify(key, alg, signature, input) {
      const s = K.state(key);
      if (s.type !== 'public') throw dom('Asymmetric verification requires a public key.', 'InvalidAccessError');
      const salt = s.name === 'RSA-PSS' ? pssSalt(alg, true) : 0;
      return P.checked(W.rsaVerify(s.material, s.name === 'RSA-PSS' ? 'PSS' : 'PKCS1', s.hash, salt, ab(signature), ab(input)));
    },
    encrypt: (key, alg, input) => oaep(key, alg, input, true),
    decrypt: (key, alg, input) => oaep(key, alg, input, false),
    wrapKey: (key, alg, input) => oaep(key, alg, input, true),
    unwrapKey: (key, alg, input) => oaep(key, alg, input, false),
  };
});
