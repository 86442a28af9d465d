// Elliptic-curve algorithms of crypto.subtle: ECDSA and ECDH on P-256/P-384/P-521, Ed25519 (and
// workerd's legacy NODE-ED25519 name) and X25519, with workerd's checks and messages (its ec.c++).
(function (host, internal) {
  'use strict';
  const P = internal.cryptoParams;
  const A = internal.cryptoAsymmetric;
  const { U, dom, W, ab, dataError: data, operationError: op } = P;
  const K = internal.cryptoKeys;

  const CURVES = { 'P-256': 32, 'P-384': 48, 'P-521': 66 };
  function curveOf(alg) {
    if (alg.namedCurve === undefined) throw new TypeError('Missing field "namedCurve" in "algorithm".');
    const c = String(alg.namedCurve).toUpperCase();
    if (CURVES[c] === undefined) throw dom('Unrecognized or unimplemented EC curve "' + alg.namedCurve + '" requested.', 'NotSupportedError');
    return c;
  }
  const isOkp = (name) => name === 'Ed25519' || name === 'NODE-ED25519' || name === 'X25519';
  const okpKind = (name) => (name === 'X25519' ? 'X25519' : 'Ed25519');
  const allowedUsages = (name) => (name === 'ECDH' || name === 'X25519' ? U.DERIVE : U.sign | U.verify);

  // ---- ECDSA, ECDH ----

  function ecAlgorithm(name, curve) {
    return { name, alg: { name, namedCurve: curve }, kind: 'elliptic', curve };
  }

  function generateEc(name, alg, extractable, usages) {
    const set = P.usageSet(name, 'generate', usages, allowedUsages(name));
    const curve = curveOf(alg);
    const handle = W.generateEc(curve);
    return name === 'ECDSA' ? A.pair(ecAlgorithm(name, curve), handle, extractable, set & U.PRIVATE, set & U.PUBLIC)
      : A.pair(ecAlgorithm(name, curve), handle, extractable, set, 0);
  }

  const readEcJwk = (name, curve) => (jwk) => {
    if (jwk.kty !== 'EC') {
      throw data('Elliptic curve "jwk" key import requires a JSON Web Key with Key Type parameter "kty" ("' + jwk.kty + '") equal to "EC".');
    }
    if (name === 'ECDSA' && jwk.alg !== undefined) {
      const algCurve = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' }[jwk.alg];
      if (algCurve === undefined) {
        throw dom('Unrecognized or unimplemented algorithm "' + jwk.alg + '" listed in JSON Web Key Algorithm parameter.', 'NotSupportedError');
      }
      if (algCurve !== curve) throw data('JSON Web Key Algorithm parameter "alg" ("' + jwk.alg + '") does not match requested curve.');
    }
    const x = P.fromBase64Url(jwk.x);
    if (x === null) throw data('Invalid EC key in JSON Web Key; missing "x".');
    const y = P.fromBase64Url(jwk.y);
    if (y === null) throw data('Invalid EC key in JSON Web Key; missing "y".');
    let d = null;
    if (jwk.d !== undefined) {
      d = P.fromBase64Url(jwk.d);
      if (d === null) throw data('Invalid EC key in JSON Web Key; missing or invalid private key component ("d").');
    }
    return P.checked(W.importEcJwk(curve, ab(x), ab(y), ab(d)));
  };

  function importEc(name, format, input, alg, extractable, usages) {
    const curve = curveOf(alg);
    let r;
    if (format === 'raw') {
      const set = P.usageSet(name, 'public', usages, name === 'ECDSA' ? U.verify : 0);
      r = { handle: P.checked(W.importEcRaw(curve, ab(input.bytes))), type: 'public', usages: set };
    } else {
      r = A.importAsymmetric(name, format, input, extractable, usages, readEcJwk(name, curve), allowedUsages(name));
    }
    if (W.keyKind(r.handle) !== 'EC') throw data(name === 'ECDSA' ? 'Input was not an EC key.' : 'Input was not an EC public key nor a DH key.');
    if (W.keyCurve(r.handle) !== curve) {
      throw data('"algorithm.namedCurve" "' + alg.namedCurve + (name === 'ECDSA' ? '"' : '",')
        + ' does not match the curve specified by the input key data.');
    }
    return A.newKey(Object.assign(ecAlgorithm(name, curve), { type: r.type, extractable, usages: r.usages, material: r.handle }));
  }

  const EC_EXPORT = {
    jwk(s) {
      const size = CURVES[s.curve];
      const parts = P.bytesFromHost(W.exportKey(s.material, 'jwk'));
      const members = { kty: 'EC', crv: s.curve, x: P.toBase64Url(parts.subarray(0, size)), y: P.toBase64Url(parts.subarray(size, 2 * size)) };
      if (s.type === 'private') members.d = P.toBase64Url(parts.subarray(2 * size));
      return members;
    },
    raw(s) {
      if (s.type !== 'public') throw dom('Raw export of elliptic curve keys is only allowed for public keys.', 'InvalidAccessError');
      return P.fromHost(W.exportKey(s.material, 'raw'));
    },
  };

  function ecdsaHash(alg) {
    if (alg.hash === undefined) {
      throw new TypeError('Missing "hash" in AlgorithmIdentifier. (ECDSA requires that the hash algorithm be specified at call time rather '
        + 'than on the key. This differs from other WebCrypto algorithms for historical reasons.)');
    }
    return P.digestName(alg.hash);
  }

  // The checks ECDH and X25519 make of `algorithm.public` before deriving.
  function peerOf(s, alg) {
    const pub = alg.public;
    if (pub === undefined) throw new TypeError('Missing field "public" in "derivedKeyParams".');
    const ps = K.state(pub);
    if (ps.type !== 'public') throw dom('The provided key has type "' + ps.type + '", not "public"', 'InvalidAccessError');
    if (ps.kind !== s.kind) {
      throw dom('Base ' + s.name + ' private key cannot be used to derive a key from a peer ' + ps.name + ' public key', 'InvalidAccessError');
    }
    if (ps.name !== s.name) {
      throw dom('Private key for derivation is using "' + s.name + '" while public key is using "' + ps.name + '".', 'InvalidAccessError');
    }
    return ps;
  }

  function truncated(secret, length, max) {
    const bits = length === null ? max : length;
    if (bits > max) throw op('Derived key length (' + bits + ' bits) is too long (should be at most ' + max + ' bits).');
    const out = secret.slice(0, Math.ceil(bits / 8));
    const mask = out.length * 8 - bits;
    if (mask) out[out.length - 1] &= ~((1 << mask) - 1) & 0xff;
    return out.buffer;
  }

  function ecdh(s, alg, length) {
    const ps = peerOf(s, alg);
    if (ps.curve !== s.curve) {
      throw dom('Private key for derivation is using curve "' + s.curve + '" while public key is using "' + ps.curve + '".', 'InvalidAccessError');
    }
    const secret = P.bytesFromHost(W.ecdh(s.material, ps.material));
    return truncated(secret, length, secret.length * 8);
  }

  // ---- Ed25519, NODE-ED25519, X25519 ----

  function okpAlgorithm(name) {
    return name === 'NODE-ED25519' ? { name, alg: { name, namedCurve: name }, kind: 'elliptic' } : { name, alg: { name }, kind: 'key' };
  }
  function checkNodeCurve(name, alg) {
    if (name !== 'NODE-ED25519') return;
    if (alg.namedCurve === undefined) throw new TypeError('Missing field "namedCurve" in "algorithm".');
    if (alg.namedCurve !== 'NODE-ED25519') throw dom('EDDSA curve "' + alg.namedCurve + '" isn\'t supported.', 'NotSupportedError');
  }

  function generateOkp(name, alg, extractable, usages) {
    const set = P.usageSet(name, 'generate', usages, allowedUsages(name));
    checkNodeCurve(name, alg);
    return A.pair(okpAlgorithm(name), W.generateOkp(okpKind(name)), extractable, set & U.PRIVATE, set & U.PUBLIC);
  }

  const readOkpJwk = (kind) => (jwk) => {
    if (jwk.kty !== 'OKP') {
      throw data(kind + ' "jwk" key imports requires a JSON Web Key with Key Type parameter "kty" ("' + jwk.kty + '") equal to "OKP".');
    }
    if (jwk.crv === undefined) throw data('Missing field "crv" for ' + kind + ' key.');
    if (jwk.crv !== kind) throw dom('Only ' + kind + ' is supported but "' + jwk.crv + '" was requested.', 'NotSupportedError');
    if (kind === 'Ed25519' && jwk.alg !== undefined && jwk.alg !== 'EdDSA') {
      throw data('JSON Web Key Algorithm parameter "alg" ("' + jwk.alg + '") does not match requested Ed25519 curve.');
    }
    const x = P.fromBase64Url(jwk.x);
    if (x === null) throw data('Invalid ' + jwk.crv + ' key in JSON WebKey; missing or invalid public key component ("x").');
    if (x.length !== 32) throw data('Invalid length ' + x.length + ' for public key');
    let d = null;
    if (jwk.d !== undefined) {
      d = P.fromBase64Url(jwk.d);
      if (d === null) throw data('Invalid ' + kind + ' key in JSON Web Key; missing or invalid private key component ("d").');
      if (d.length !== 32) throw data('Invalid length ' + d.length + ' for private key');
    }
    return P.checked(W.importOkpJwk(kind, ab(x), ab(d)));
  };

  function importOkp(name, format, input, alg, extractable, usages) {
    checkNodeCurve(name, alg);
    const kind = okpKind(name);
    let r;
    if (format === 'raw') {
      const set = P.usageSet(name, 'public', usages, name === 'X25519' ? 0 : U.verify);
      if (input.bytes.length !== 32) throw data(kind + ' raw keys must be exactly 32-bytes (provided ' + input.bytes.length + ').');
      r = { handle: P.checked(W.importOkpRaw(kind, ab(input.bytes))), type: 'public', usages: set };
    } else {
      r = A.importAsymmetric(name, format, input, extractable, usages, readOkpJwk(kind), allowedUsages(name));
    }
    // (workerd takes an SPKI/PKCS#8 of the other curve without complaint; cellgate refuses it here)
    if (W.keyKind(r.handle) !== kind) throw data('Input was not an ' + kind + ' key.');
    return A.newKey(Object.assign(okpAlgorithm(name), { type: r.type, extractable, usages: r.usages, material: r.handle }));
  }

  const OKP_EXPORT = {
    jwk(s) {
      const parts = P.bytesFromHost(W.exportKey(s.material, 'jwk'));
      const members = { kty: 'OKP', crv: okpKind(s.name), x: P.toBase64Url(parts.subarray(0, 32)) };
      if (s.name === 'Ed25519') members.alg = 'EdDSA';
      if (s.type === 'private') members.d = P.toBase64Url(parts.subarray(32));
      return members;
    },
    raw(s) {
      if (s.type !== 'public') throw dom('Raw export of ' + s.name + ' keys is only allowed for public keys.', 'InvalidAccessError');
      return P.fromHost(W.exportKey(s.material, 'raw'));
    },
  };

  function x25519(s, alg, length) {
    const ps = peerOf(s, alg);
    if (length !== null && length > 256) throw op('Derived key length (' + length + ' bits) is too long (should be at most 256 bits).');
    return truncated(P.bytesFromHost(W.x25519(s.material, ps.material)), length, 256);
  }

  internal.cryptoEc = {
    generateKey: (name, alg, extractable, usages) =>
      (isOkp(name) ? generateOkp(name, alg, extractable, usages) : generateEc(name, alg, extractable, usages)),
    importKey: (name, format, input, alg, extractable, usages) =>
      (isOkp(name) ? importOkp(name, format, input, alg, extractable, usages) : importEc(name, format, input, alg, extractable, usages)),
    exportKey: (key, format) => A.exportAsymmetric(key, format, isOkp(K.state(key).name) ? OKP_EXPORT : EC_EXPORT),
    sign(key, alg, input) {
      const s = K.state(key);
      if (s.type !== 'private') throw dom('Asymmetric signing requires a private key.', 'InvalidAccessError');
      if (isOkp(s.name)) return P.fromHost(W.ed25519Sign(s.material, ab(input)));
      return P.fromHost(W.ecdsaSign(s.material, ecdsaHash(alg), ab(input)));
    },
    verify(key, alg, signature, input) {
      const s = K.state(key);
      if (s.type !== 'public') throw dom('Asymmetric verification requires a public key.', 'InvalidAccessError');
      if (isOkp(s.name)) {
        if (signature.length !== 64) throw op('Invalid ' + s.name + ' signature length ' + signature.length);
        return W.ed25519Verify(s.material, ab(signature), ab(input));
      }
      return W.ecdsaVerify(s.material, ecdsaHash(alg), ab(signature), ab(input));
    },
    deriveBits(key, alg, length) {
      const s = K.state(key);
      return s.name === 'X25519' ? x25519(s, alg, length) : ecdh(s, alg, length);
    },
  };
});
