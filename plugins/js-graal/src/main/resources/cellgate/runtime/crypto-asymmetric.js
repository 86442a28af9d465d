// What crypto.subtle's key-pair algorithms share (workerd's keys.c++): importing SPKI, PKCS#8 and
// JWK with its usage, "use" and "key_ops" rules; generated pairs; the SPKI/PKCS#8/JWK exports.
// The key material is an opaque JDK key handle (WebCryptoHost); crypto-ec.js and crypto-rsa.js
// add what is particular to each algorithm.
(function (host, internal) {
  'use strict';
  const P = internal.cryptoParams;
  const { U, dom, W, ab, dataError: data } = P;
  const K = internal.cryptoKeys;

  // Which JWK "use" and "key_ops" a key of this algorithm may carry.
  function jwkUse(name) {
    if (name === 'RSA-OAEP') return ['enc', 'encrypt', 'wrapKey'];
    if (name === 'ECDH' || name === 'X25519') return ['enc', 'unused', 'unused'];
    return ['sig', 'sign', 'verify'];
  }

  function checkJwkUsages(name, jwk, usages) {
    const [expectedUse, op0, op1] = jwkUse(name);
    if (usages.length > 0 && jwk.use !== undefined && jwk.use !== expectedUse) {
      throw data('Asymmetric "jwk" key import with usages requires a JSON Web Key with Public Key Use parameter "use" ("' + jwk.use
        + '") equal to "sig".');
    }
    if (jwk.key_ops === undefined) return;
    const ops = jwk.key_ops.slice().sort();
    for (let i = 1; i < ops.length; i++) {
      if (ops[i] === ops[i - 1]) throw data('A JSON Web Key\'s Key Operations parameter ("key_ops") must not contain duplicates.');
    }
    if (jwk.use !== undefined) {
      if (jwk.use !== expectedUse) {
        throw data('Asymmetric "jwk" import requires a JSON Web Key with Public Key Use "use" ("' + jwk.use + '") equal to "' + expectedUse + '".');
      }
      const prefix = 'A JSON Web Key should have either a Public Key Use parameter ("use") or a Key Operations parameter ("key_ops"); '
        + 'otherwise, the parameters must be consistent with each other. ';
      for (const o of ops) {
        if (name === 'ECDH' || name === 'X25519') {
          throw data(prefix + 'For public ' + name + ' keys, there are no valid usages,so keys with a non-empty "key_ops" parameter are not allowed.');
        }
        if (o !== op0 && o !== op1) {
          throw data(prefix + 'A Public Key Use for ' + name + ' would allow a Key Operations array with only "' + op0 + '" and/or "' + op1
            + '" values (not "' + o + '").');
        }
      }
    }
    // workerd checks the first usage and the one after the first usage's last occurrence.
    if (usages.length > 0) {
      const missing = 'All specified key usages must be present in the JSON Web Key\'s Key Operations parameter ("key_ops").';
      if (!ops.includes(usages[0])) throw data(missing);
      const second = usages[usages.lastIndexOf(usages[0]) + 1];
      if (second !== undefined && !ops.includes(second)) throw data(missing);
    }
  }

  const publicAllowed = (name, allowed) => allowed & (name === 'ECDH' ? 0 : U.PUBLIC);

  // -> { handle, type, usages (bit set) }. `readJwk(jwk)` turns a JWK into a host key handle.
  function importAsymmetric(name, format, input, extractable, usages, readJwk, allowed) {
    if (format === 'jwk') {
      const jwk = input.jwk;
      let type;
      let set;
      if (jwk.d !== undefined) {
        type = 'private';
        set = P.usageSet(name, 'private', usages, allowed & U.PRIVATE);
        if (jwk.oth !== undefined) throw dom('Multi-prime private keys not supported.', 'NotSupportedError');
      } else {
        type = 'public';
        set = P.usageSet(name, 'public', usages, publicAllowed(name, allowed));
      }
      checkJwkUsages(name, jwk, usages);
      if (jwk.ext === false && extractable) throw data('Cannot create an extractable CryptoKey from an unextractable JSON Web Key.');
      return { handle: readJwk(jwk), type, usages: set };
    }
    if (format === 'spki') {
      const handle = P.checked(W.importKey('spki', ab(input.bytes)));
      return { handle, type: 'public', usages: P.usageSet(name, 'public', usages, publicAllowed(name, allowed)) };
    }
    if (format === 'pkcs8') {
      const handle = P.checked(W.importKey('pkcs8', ab(input.bytes)));
      return { handle, type: 'private', usages: P.usageSet(name, 'private', usages, allowed & U.PRIVATE) };
    }
    throw dom('Unrecognized key import format "' + format + '".', 'NotSupportedError');
  }

  function newKey(state) {
    return K.create(state);
  }

  // A generated pair: the public key is always extractable (workerd, as the spec says).
  function pair(base, handle, extractable, privateUsages, publicUsages) {
    const publicKey = K.create(Object.assign({}, base, { type: 'public', extractable: true, usages: publicUsages,
      material: W.publicKeyOf(handle) }));
    const privateKey = K.create(Object.assign({}, base, { type: 'private', extractable, usages: privateUsages, material: handle }));
    return { publicKey, privateKey };
  }

  // JWK members in the order workerd's JsonWebKey declares them (that is how it serializes them).
  const JWK_ORDER = ['kty', 'use', 'key_ops', 'alg', 'ext', 'crv', 'x', 'y', 'd', 'n', 'e', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
  function orderedJwk(members) {
    const out = {};
    for (const m of JWK_ORDER) if (members[m] !== undefined) out[m] = members[m];
    return out;
  }

  // exportKey for key pairs; `own` gives the algorithm's jwk members and raw export.
  function exportAsymmetric(key, format, own) {
    const s = K.state(key);
    if (format === 'pkcs8') {
      if (s.type !== 'private') throw dom('Asymmetric pkcs8 export requires private key (not "' + s.type + '").', 'InvalidAccessError');
      return P.fromHost(W.exportKey(s.material, 'pkcs8'));
    }
    if (format === 'spki') {
      if (s.type !== 'public') throw dom('Asymmetric spki export requires public key (not "' + s.type + '").', 'InvalidAccessError');
      return P.fromHost(W.exportKey(s.material, 'spki'));
    }
    if (format === 'jwk') return orderedJwk(Object.assign(own.jwk(s), { ext: true, key_ops: P.usageNames(s.usages) }));
    if (format === 'raw') return own.raw(s);
    throw dom('Cannot export "' + s.name + '" in "' + format + '" format.', 'InvalidAccessError');
  }

  internal.cryptoAsymmetric = { importAsymmetric, pair, newKey, exportAsymmetric };
});
