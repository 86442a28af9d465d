// KV and R2 bindings, the same bytes on workerd (miniflare) and on cellgate (KvR2ConformanceTest):
// each case runs one step against env.KV / env.R2 and answers its result as JSON (an error as its
// class and message). Cases run in order on one store, so later cases see earlier writes.
const now = () => Math.floor(Date.now() / 1000);
// An R2 object without what differs by nature between two stores (version, upload time).
const obj = (o) => (o === null ? null : {
  cls: o.constructor.name, key: o.key, size: o.size, etag: o.etag, httpEtag: o.httpEtag, version: typeof o.version + o.version.length,
  uploaded: o.uploaded instanceof Date && Math.abs(o.uploaded.getTime() - Date.now()) < 120000, httpMetadata: o.httpMetadata,
  customMetadata: o.customMetadata, range: o.range, checksums: o.checksums.toJSON(), storageClass: o.storageClass, hasBody: 'body' in o,
  ownKeys: Object.keys(o).join(','),
});
const big = (n, c = 'x') => c.repeat(n);
const MiB = 1024 * 1024;

const KV = {
  'kv-put-text': (K) => K.put('a', 'alpha'),
  'kv-get-text': (K) => K.get('a'),
  'kv-get-text-type': (K) => K.get('a', 'text'),
  'kv-get-text-options': (K) => K.get('a', { type: 'text' }),
  'kv-get-missing': (K) => K.get('nope'),
  'kv-get-missing-json': (K) => K.get('nope', 'json'),
  'kv-put-json': (K) => K.put('j', JSON.stringify({ n: 1, s: 'x' })),
  'kv-get-json': (K) => K.get('j', 'json'),
  'kv-get-json-bad': async (K) => { try { return await K.get('a', 'json'); } catch (e) { return 'threw ' + e.constructor.name; } },
  'kv-get-arraybuffer': async (K) => { const b = await K.get('a', 'arrayBuffer'); return [b instanceof ArrayBuffer, b.byteLength, new TextDecoder().decode(b)]; },
  'kv-get-stream': async (K) => { const s = await K.get('a', 'stream'); return [s instanceof ReadableStream, await new Response(s).text()]; },
  'kv-get-type-unknown': (K) => K.get('a', 'blob'),
  'kv-get-type-unknown-options': (K) => K.get('a', { type: 'bytes' }),
  'kv-get-cachettl-ok': (K) => K.get('a', { cacheTtl: 30 }),
  'kv-get-cachettl-60': (K) => K.get('a', { type: 'text', cacheTtl: 3600 }),
  'kv-get-cachettl-low': (K) => K.get('a', { cacheTtl: 10 }),
  'kv-put-bytes': async (K) => { await K.put('bin', new Uint8Array([0, 1, 2, 255])); return Array.from(new Uint8Array(await K.get('bin', 'arrayBuffer'))); },
  'kv-put-view': async (K) => { const u = new Uint8Array([9, 8, 7, 6, 5]); await K.put('view', u.subarray(1, 4)); return Array.from(new Uint8Array(await K.get('view', 'arrayBuffer'))); },
  'kv-put-arraybuffer': async (K) => { await K.put('ab', new Uint8Array([65, 66]).buffer); return K.get('ab'); },
  'kv-put-stream': async (K) => { await K.put('st', new Response('from a stream').body); return K.get('st'); },
  'kv-put-number': async (K) => { await K.put('num', 42); return K.get('num'); },
  'kv-put-null': async (K) => { await K.put('nul', null); return K.get('nul'); },
  'kv-put-object': (K) => K.put('obj', { a: 1 }),
  'kv-put-undefined': (K) => K.put('undef'),
  'kv-key-number': async (K) => { await K.put(7, 'seven'); return K.get('7'); },
  'kv-key-unicode': async (K) => { await K.put('clé/ü/😀', 'u'); return [await K.get('clé/ü/😀'), (await K.list({ prefix: 'clé' })).keys.map((k) => k.name)]; },
  'kv-key-empty-get': (K) => K.get(''),
  'kv-key-empty-put': (K) => K.put('', 'v'),
  'kv-key-empty-delete': (K) => K.delete(''),
  'kv-key-dot': (K) => K.get('.'),
  'kv-key-dotdot': (K) => K.put('..', 'v'),
  'kv-key-512': async (K) => { await K.put(big(512), 'max'); return K.get(big(512)); },
  'kv-key-513-get': (K) => K.get(big(513)),
  'kv-key-513-put': (K) => K.put(big(513), 'v'),
  'kv-key-513-multibyte': (K) => K.put(big(171, 'é') + 'x', 'v'),
  'kv-metadata': async (K) => { await K.put('m', 'mv', { metadata: { owner: 'me', n: [1, 2] } }); return K.getWithMetadata('m'); },
  'kv-metadata-string': async (K) => { await K.put('ms', 'v', { metadata: 'just a string' }); return K.getWithMetadata('ms'); },
  'kv-metadata-none': (K) => K.getWithMetadata('a'),
  'kv-metadata-missing': (K) => K.getWithMetadata('nope'),
  'kv-metadata-json-type': async (K) => K.getWithMetadata('j', 'json'),
  'kv-metadata-1024': (K) => K.put('m2', 'v', { metadata: big(1022) }),
  'kv-metadata-1025': (K) => K.put('m3', 'v', { metadata: big(1023) }),
  'kv-value-25mib': async (K) => { await K.put('big', new Uint8Array(25 * 1024 * 1024)); return (await K.get('big', 'arrayBuffer')).byteLength; },
  'kv-value-too-big': (K) => K.put('big2', new Uint8Array(25 * 1024 * 1024 + 1)),
  'kv-ttl-60': async (K) => { await K.put('t', 'v', { expirationTtl: 60 }); const l = await K.list({ prefix: 't' }); return l.keys.map((k) => [k.name, k.expiration - now() >= 58 && k.expiration - now() <= 60]); },
  'kv-ttl-10': (K) => K.put('t2', 'v', { expirationTtl: 10 }),
  'kv-ttl-0': (K) => K.put('t2', 'v', { expirationTtl: 0 }),
  'kv-ttl-negative': (K) => K.put('t2', 'v', { expirationTtl: -5 }),
  'kv-ttl-not-a-number': (K) => K.put('t2', 'v', { expirationTtl: 'soon' }),
  'kv-expiration-ok': async (K) => { const at = now() + 3600; await K.put('e', 'v', { expiration: at, metadata: 1 }); const l = await K.list({ prefix: 'e' }); return l.keys.map((k) => [k.name, k.expiration === at, k.metadata]); },
  'kv-expiration-past': (K) => K.put('e2', 'v', { expiration: 1000 }),
  'kv-expiration-near': async (K) => { try { await K.put('e2', 'v', { expiration: now() + 10 }); return 'stored'; } catch (e) { return e.message.replace(/of \d+\./, 'of N.'); } },
  'kv-delete': async (K) => { await K.put('d', 'v'); await K.delete('d'); return K.get('d'); },
  'kv-delete-missing': (K) => K.delete('never-was'),
  'kv-seed-p': async (K) => { for (const k of ['p1', 'p2', 'p3', 'p4', 'p5']) await K.put(k, k); },
  'kv-list-all': async (K) => (await K.list()).keys.map((k) => k.name.length > 40 ? 'long' + k.name.length : k.name),
  'kv-list-prefix': (K) => K.list({ prefix: 'm' }),
  'kv-list-prefix-none': (K) => K.list({ prefix: 'zzz' }),
  'kv-list-limit-1': async (K) => { const l = await K.list({ limit: 1 }); return [l.keys, l.list_complete, typeof l.cursor, Object.keys(l)]; },
  'kv-list-paged': async (K) => {
    const seen = [];
    let cursor;
    for (let i = 0; i < 50; i++) {
      const l = await K.list({ prefix: 'p', limit: 2, cursor });
      seen.push(l.keys.map((k) => k.name).join('+') + (l.list_complete ? '.' : ''));
      if (l.list_complete) break;
      cursor = l.cursor;
    }
    return seen;
  },
  'kv-list-limit-1001': (K) => K.list({ limit: 1001 }),
  'kv-list-limit-1000': async (K) => (await K.list({ limit: 1000, prefix: 'p' })).keys.length,
  'kv-list-limit-0': async (K) => (await K.list({ limit: 0, prefix: 'p' })).keys.length,
  'kv-list-exact-limit': async (K) => { const l = await K.list({ prefix: 'p', limit: 5 }); return [l.keys.length, l.list_complete]; },
  'kv-bulk-get': async (K) => [...(await K.get(['a', 'nope', 'num']))],
  'kv-bulk-get-json': async (K) => [...(await K.get(['j'], 'json'))],
  'kv-bulk-get-json-bad': (K) => K.get(['a', 'j'], 'json'),
  'kv-bulk-metadata': async (K) => [...(await K.getWithMetadata(['m', 'a']))],
  'kv-overwrite-drops-metadata': async (K) => { await K.put('m', 'again'); return K.getWithMetadata('m'); },
  'kv-order-seed': async (K) => { for (const k of ['o/a', 'o/a/b', 'o/aa', 'o/A', 'o/~', 'o/é', 'o/ ', 'o/0', 'o/a b', 'o/\u00ff', 'o/\u0100']) await K.put(k, k); },
  'kv-order-list': async (K) => (await K.list({ prefix: 'o/' })).keys.map((k) => k.name),
  'kv-order-paged': async (K) => {
    const seen = [];
    let cursor;
    for (let i = 0; i < 20; i++) {
      const l = await K.list({ prefix: 'o/a', limit: 1, cursor });
      seen.push(l.keys.map((k) => k.name).join('+') + (l.list_complete ? '.' : ''));
      if (l.list_complete) break;
      cursor = l.cursor;
    }
    return seen;
  },
  'kv-list-prefix-empty': async (K) => (await K.list({ prefix: '' })).keys.length,
  'kv-list-limit-string': async (K) => (await K.list({ prefix: 'o/', limit: '2' })).keys.map((k) => k.name),
  'kv-list-metadata-kinds': async (K) => {
    await K.put('mk/num', 'v', { metadata: 5 }); await K.put('mk/arr', 'v', { metadata: [1, 'a'] }); await K.put('mk/null', 'v', { metadata: null });
    await K.put('mk/bool', 'v', { metadata: false }); await K.put('mk/undef', 'v', { metadata: undefined });
    return (await K.list({ prefix: 'mk/' })).keys;
  },
  'kv-get-options-null': (K) => K.get('a', null),
  'kv-get-options-empty': (K) => K.get('a', {}),
  'kv-getmeta-arraybuffer': async (K) => { const r = await K.getWithMetadata('m', 'arrayBuffer'); return [r.value instanceof ArrayBuffer, r.metadata, r.cacheStatus]; },
  'kv-getmeta-stream': async (K) => { const r = await K.getWithMetadata('a', { type: 'stream' }); return [await new Response(r.value).text(), r.metadata]; },
  'kv-put-empty-string': async (K) => { await K.put('empty', ''); return [await K.get('empty'), (await K.get('empty', 'arrayBuffer')).byteLength]; },
  'kv-put-both-expirations': async (K) => { const at = now() + 7200; await K.put('both', 'v', { expiration: at, expirationTtl: 300 }); const k = (await K.list({ prefix: 'both' })).keys[0]; return [k.expiration - now() > 250 && k.expiration - now() <= 300, k.expiration === at]; },
  'kv-put-expiration-string': async (K) => { const at = now() + 7200; await K.put('es', 'v', { expiration: String(at) }); return (await K.list({ prefix: 'es' })).keys[0].expiration === at; },
  'kv-key-whitespace': async (K) => { await K.put(' spaced \n key\t', 'ws'); return [await K.get(' spaced \n key\t'), (await K.list({ prefix: ' ' })).keys.map((k) => k.name)]; },
  'kv-key-slashes': async (K) => { await K.put('/leading', 'l'); await K.put('trailing/', 't'); await K.put('a//b', 'd'); return [await K.get('/leading'), await K.get('trailing/'), await K.get('a//b')]; },
  'kv-key-object': async (K) => { await K.put({ toString: () => 'tostring-key' }, 'o'); return K.get('tostring-key'); },
  'kv-key-null': async (K) => { await K.put(null, 'n'); return K.get('null'); },
  'kv-bulk-101': async (K) => { const keys = Array.from({ length: 101 }, (_, i) => 'bulk' + i); try { return (await K.get(keys)).size; } catch (e) { return e.constructor.name + ':' + e.message; } },
  'kv-bulk-100': async (K) => (await K.get(Array.from({ length: 100 }, (_, i) => 'bulk' + i))).size,
  'kv-bulk-arraybuffer': (K) => K.get(['a'], 'arrayBuffer'),
  'kv-bulk-empty': async (K) => [...(await K.get([]))],
  'kv-bulk-duplicates': async (K) => [...(await K.get(['a', 'a']))],
  'kv-delete-then-list': async (K) => { await K.delete('o/~'); return (await K.list({ prefix: 'o/~' })).keys; },
  'kv-cursor-other-prefix': async (K) => { const l = await K.list({ prefix: 'o/', limit: 2 }); const n = await K.list({ prefix: 'o/', limit: 2, cursor: l.cursor }); return n.keys.map((k) => k.name); },
  'kv-put-sharedarraybuffer-view': async (K) => { const d = new DataView(new Uint8Array([7, 8, 9]).buffer, 1); await K.put('dv', d); return Array.from(new Uint8Array(await K.get('dv', 'arrayBuffer'))); },
  'kv-put-metadata-nested': async (K) => { await K.put('mn', 'v', { metadata: { a: { b: [1, { c: null }] } } }); return K.getWithMetadata('mn', 'json').catch((e) => e.constructor.name); },
  'kv-put-metadata-unicode-size': (K) => K.put('mu', 'v', { metadata: 'é'.repeat(511) }),
  'kv-put-metadata-date': async (K) => { await K.put('md', 'v', { metadata: { d: new Date(0) } }); return (await K.getWithMetadata('md')).metadata; },
  'kv-put-expiration-float': async (K) => { const at = now() + 3600.7; await K.put('ef', 'v', { expiration: at }); return (await K.list({ prefix: 'ef' })).keys[0].expiration === Math.floor(at); },
  'kv-put-ttl-float': async (K) => { await K.put('tf', 'v', { expirationTtl: 60.9 }); const e = (await K.list({ prefix: 'tf' })).keys[0].expiration - now(); return e >= 58 && e <= 61; },
  'kv-put-ttl-59': (K) => K.put('t59', 'v', { expirationTtl: 59 }),
  'kv-put-options-null': async (K) => { await K.put('on', 'v', null); return K.get('on'); },
  'kv-get-json-value-types': async (K) => { await K.put('jv', '[1,"a",null,true]'); return K.get('jv', 'json'); },
  'kv-get-json-number': async (K) => { await K.put('jn', '42'); return K.get('jn', { type: 'json' }); },
  'kv-get-text-binary': async (K) => { await K.put('tb', new Uint8Array([0xe2, 0x82, 0xac, 0xff])); return K.get('tb'); },
  'kv-list-after-expiring-put': async (K) => { await K.put('lx', 'v', { expirationTtl: 120, metadata: { x: 1 } }); const k = (await K.list({ prefix: 'lx' })).keys[0]; return [k.name, typeof k.expiration, k.metadata, Object.keys(k)]; },
  'kv-list-cursor-with-prefix-end': async (K) => { const l = await K.list({ prefix: 'p', limit: 4 }); const n = await K.list({ prefix: 'p', limit: 4, cursor: l.cursor }); return [l.list_complete, n.keys.map((k) => k.name), n.list_complete, 'cursor' in n]; },
  'kv-getmeta-bulk-missing': async (K) => [...(await K.getWithMetadata(['nope', 'm']))],
  'kv-bulk-type-options': async (K) => [...(await K.get(['j'], { type: 'json' }))],
  'kv-bulk-key-too-long': async (K) => { try { return [...(await K.get(['x'.repeat(513)]))]; } catch (e) { return e.constructor.name; } },
  'kv-class': (K) => [K.constructor.name, typeof K.get, typeof K.put, typeof K.list, typeof K.delete, typeof K.getWithMetadata],
};

const R2 = {
  'r2-put': async (B) => obj(await B.put('a', 'hello world', { httpMetadata: { contentType: 'text/plain', cacheControl: 'max-age=1' }, customMetadata: { x: 'y' } })),
  'r2-head': async (B) => obj(await B.head('a')),
  'r2-head-missing': (B) => B.head('missing'),
  'r2-get': async (B) => { const o = await B.get('a'); return [obj(o), await o.text()]; },
  'r2-get-missing': (B) => B.get('missing'),
  'r2-get-json': async (B) => { await B.put('j', '{"a":[1,2]}'); return (await B.get('j')).json(); },
  'r2-get-arraybuffer': async (B) => { await B.put('b', new Uint8Array([1, 2, 3])); return Array.from(new Uint8Array(await (await B.get('b')).arrayBuffer())); },
  'r2-get-body': async (B) => { const o = await B.get('a'); return [o.bodyUsed, await new Response(o.body).text()]; },
  'r2-range-offset-length': async (B) => { const o = await B.get('a', { range: { offset: 2, length: 3 } }); return [o.range, o.size, await o.text()]; },
  'r2-range-suffix': async (B) => { const o = await B.get('a', { range: { suffix: 4 } }); return [o.range, await o.text()]; },
  'r2-range-offset': async (B) => { const o = await B.get('a', { range: { offset: 6 } }); return [o.range, await o.text()]; },
  'r2-range-length-past-end': async (B) => { const o = await B.get('a', { range: { offset: 8, length: 100 } }); return [o.range, await o.text()]; },
  'r2-range-unsatisfiable': (B) => B.get('a', { range: { offset: 20 } }),
  'r2-range-headers': async (B) => { const o = await B.get('a', { range: new Headers({ range: 'bytes=0-1' }) }); return [o.range, await o.text()]; },
  'r2-range-headers-suffix': async (B) => { const o = await B.get('a', { range: new Headers({ range: 'bytes=-3' }) }); return [o.range, await o.text()]; },
  'r2-onlyif-etag-matches': async (B) => { const o = await B.get('a', { onlyIf: { etagMatches: '5eb63bbbe01eeed093cb22bb8f5acdc3' } }); return [o.constructor.name, 'body' in o]; },
  'r2-onlyif-etag-fails': async (B) => { const o = await B.get('a', { onlyIf: { etagMatches: 'nope' } }); return [o.constructor.name, 'body' in o, o.key]; },
  'r2-onlyif-none-match': async (B) => { const o = await B.get('a', { onlyIf: { etagDoesNotMatch: '5eb63bbbe01eeed093cb22bb8f5acdc3' } }); return ['body' in o]; },
  'r2-onlyif-headers': async (B) => { const o = await B.get('a', { onlyIf: new Headers({ 'if-none-match': '"5eb63bbbe01eeed093cb22bb8f5acdc3"' }) }); return ['body' in o]; },
  'r2-onlyif-headers-match': async (B) => { const o = await B.get('a', { onlyIf: new Headers({ 'if-match': '"5eb63bbbe01eeed093cb22bb8f5acdc3"' }) }); return ['body' in o]; },
  'r2-onlyif-uploaded-before-past': async (B) => { const o = await B.get('a', { onlyIf: { uploadedBefore: new Date(0) } }); return ['body' in o]; },
  'r2-onlyif-uploaded-after-past': async (B) => { const o = await B.get('a', { onlyIf: { uploadedAfter: new Date(0) } }); return ['body' in o]; },
  'r2-put-onlyif-fails': (B) => B.put('a', 'x', { onlyIf: { etagMatches: 'nope' } }),
  'r2-put-onlyif-holds': async (B) => obj(await B.put('c', 'cond', { onlyIf: { etagDoesNotMatch: '*' } })),
  'r2-put-onlyif-exists-fails': (B) => B.put('c', 'again', { onlyIf: { etagDoesNotMatch: '*' } }),
  'r2-md5-ok': async (B) => obj(await B.put('m', 'hello world', { md5: '5eb63bbbe01eeed093cb22bb8f5acdc3' })),
  'r2-md5-bad': (B) => B.put('m', 'x', { md5: '00000000000000000000000000000000' }),
  'r2-md5-buffer': async (B) => obj(await B.put('m', 'hello world', { md5: new Uint8Array('5eb63bbbe01eeed093cb22bb8f5acdc3'.match(/../g).map((h) => parseInt(h, 16))) })),
  'r2-sha256-bad': (B) => B.put('m', 'x', { sha256: '0'.repeat(64) }),
  'r2-sha1-bad': (B) => B.put('m', 'x', { sha1: '0'.repeat(40) }),
  'r2-sha256-ok': async (B) => (await B.put('s', 'x', { sha256: '2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881' })).checksums.toJSON(),
  'r2-write-http-metadata': async (B) => { const h = new Headers(); (await B.head('a')).writeHttpMetadata(h); return [...h]; },
  'r2-http-metadata-headers': async (B) => { await B.put('h', 'x', { httpMetadata: new Headers({ 'content-type': 'a/b', 'content-language': 'en', 'x-other': '1' }) }); return (await B.head('h')).httpMetadata; },
  'r2-cache-expiry': async (B) => { await B.put('e', 'x', { httpMetadata: { cacheExpiry: new Date(0) } }); const o = await B.head('e'); const h = new Headers(); o.writeHttpMetadata(h); return [o.httpMetadata, o.httpMetadata.cacheExpiry instanceof Date, [...h]]; },
  'r2-put-null': async (B) => obj(await B.put('n', null)),
  'r2-put-stream': async (B) => { await B.put('st', new Response('streamed').body); return (await B.get('st')).text(); },
  'r2-put-object': (B) => B.put('bad', { a: 1 }),
  'r2-key-empty': async (B) => { await B.put('', 'empty'); return (await B.get('')).text(); },
  'r2-key-1025': (B) => B.put(big(1025), 'x'),
  'r2-key-unicode': async (B) => { await B.put('dir/é😀', 'u'); return (await B.get('dir/é😀')).text(); },
  'r2-list': async (B) => { const l = await B.list(); return { ...l, objects: l.objects.map((o) => [o.key, o.size, o.httpMetadata, o.customMetadata]) }; },
  'r2-list-include': async (B) => (await B.list({ include: ['httpMetadata', 'customMetadata'] })).objects.map((o) => [o.key, o.httpMetadata, o.customMetadata]),
  'r2-list-limit': async (B) => { const l = await B.list({ limit: 2 }); return [l.objects.map((o) => o.key), l.truncated, typeof l.cursor, l.delimitedPrefixes]; },
  'r2-list-paged': async (B) => {
    const seen = [];
    let cursor;
    for (let i = 0; i < 50; i++) {
      const l = await B.list({ limit: 3, cursor });
      seen.push(l.objects.map((o) => o.key).join('+') + (l.truncated ? '' : '.'));
      if (!l.truncated) break;
      cursor = l.cursor;
    }
    return seen;
  },
  'r2-list-delimiter': async (B) => { await B.put('d/x/1', '1'); await B.put('d/x/2', '2'); await B.put('d/y', '2'); const l = await B.list({ prefix: 'd/', delimiter: '/' }); return { ...l, objects: l.objects.map((o) => o.key) }; },
  'r2-list-delimiter-root': async (B) => { const l = await B.list({ delimiter: '/' }); return [l.objects.map((o) => o.key), l.delimitedPrefixes, l.truncated]; },
  'r2-list-start-after': async (B) => (await B.list({ startAfter: 'c' })).objects.map((o) => o.key),
  'r2-list-prefix': async (B) => (await B.list({ prefix: 'd/x' })).objects.map((o) => o.key),
  'r2-list-limit-0': (B) => B.list({ limit: 0 }),
  'r2-list-limit-1001': (B) => B.list({ limit: 1001 }),
  'r2-list-include-bad': (B) => B.list({ include: ['nope'] }),
  'r2-delete-one': async (B) => { await B.delete('c'); return B.head('c'); },
  'r2-delete-many': async (B) => { await B.delete(['b', 'j', 'never']); return [await B.head('b'), await B.head('j')]; },
  'r2-delete-missing': (B) => B.delete('never-was'),
  'r2-onlyif-quoted-list': async (B) => { const o = await B.get('a', { onlyIf: { etagMatches: '"x", "5eb63bbbe01eeed093cb22bb8f5acdc3"' } }); return ['body' in o]; },
  'r2-onlyif-star': async (B) => { const o = await B.get('a', { onlyIf: { etagMatches: '*' } }); return ['body' in o]; },
  'r2-onlyif-uploaded-before-future': async (B) => { const o = await B.get('a', { onlyIf: { uploadedBefore: new Date(Date.now() + 86400000) } }); return ['body' in o]; },
  'r2-onlyif-uploaded-after-future': async (B) => { const o = await B.get('a', { onlyIf: { uploadedAfter: new Date(Date.now() + 86400000) } }); return ['body' in o]; },
  'r2-onlyif-missing-object': (B) => B.get('missing', { onlyIf: { etagMatches: 'x' } }),
  'r2-custom-metadata-coerced': async (B) => { await B.put('cm', 'x', { customMetadata: { n: 1, b: true } }); return (await B.head('cm')).customMetadata; },
  'r2-http-metadata-all': async (B) => { await B.put('hm', 'x', { httpMetadata: { contentType: 't/x', contentLanguage: 'fr', contentDisposition: 'inline', contentEncoding: 'gzip', cacheControl: 'no-store' } }); const o = await B.head('hm'); const h = new Headers(); o.writeHttpMetadata(h); return [o.httpMetadata, [...h]]; },
  'r2-write-http-metadata-none': async (B) => { const h = new Headers({ keep: '1' }); (await B.head('b' === 'b' ? 'st' : 'x')).writeHttpMetadata(h); return [...h]; },
  'r2-range-zero-length': async (B) => { const o = await B.get('a', { range: { offset: 0, length: 0 } }); return [o.range, await o.text()]; },
  'r2-range-suffix-too-big': async (B) => { const o = await B.get('a', { range: { suffix: 100 } }); return [o.range, await o.text()]; },
  'r2-range-length-only': async (B) => { const o = await B.get('a', { range: { length: 4 } }); return [o.range, await o.text()]; },
  'r2-range-headers-open': async (B) => { const o = await B.get('a', { range: new Headers({ range: 'bytes=6-' }) }); return [o.range, await o.text()]; },
  'r2-text-twice': async (B) => { const o = await B.get('a'); await o.text(); try { await o.text(); return 'read twice'; } catch (e) { return e.constructor.name; } },
  'r2-body-used': async (B) => { const o = await B.get('a'); const before = o.bodyUsed; await o.arrayBuffer(); return [before, o.bodyUsed]; },
  'r2-blob': async (B) => { const o = await B.get('a'); const b = await o.blob(); return [b.size, b.type, await b.text()]; },
  'r2-put-blob': async (B) => { await B.put('blob', new Blob(['bl', 'ob'])); return (await B.get('blob')).text(); },
  'r2-put-view': async (B) => { const u = new Uint8Array([1, 2, 3, 4, 5]); await B.put('view', u.subarray(1, 3)); return Array.from(new Uint8Array(await (await B.get('view')).arrayBuffer())); },
  'r2-checksum-getter': async (B) => { const o = await B.head('a'); return [o.checksums.md5 instanceof ArrayBuffer, o.checksums.md5.byteLength, o.checksums.sha256]; },
  'r2-key-leading-slash': async (B) => { await B.put('/abs', 'x'); return [(await B.head('/abs')).key, (await B.list({ prefix: '/' })).objects.map((o) => o.key)]; },
  'r2-head-after-delete': async (B) => { await B.put('tmp', 'x'); await B.delete('tmp'); return B.head('tmp'); },
  'r2-list-include-custom-only': async (B) => (await B.list({ prefix: 'cm', include: ['customMetadata'] })).objects.map((o) => [o.key, o.httpMetadata, o.customMetadata]),
  'r2-list-prefix-start-after-limit': async (B) => { const l = await B.list({ prefix: 'd/', startAfter: 'd/x/1', limit: 1 }); return [l.objects.map((o) => o.key), l.truncated]; },
  'r2-list-delimiter-paged': async (B) => {
    const seen = [];
    let cursor;
    for (let i = 0; i < 30; i++) {
      const l = await B.list({ delimiter: '/', limit: 2, cursor });
      seen.push([l.objects.map((o) => o.key).join('+'), l.delimitedPrefixes.join('+'), l.truncated]);
      if (!l.truncated) break;
      cursor = l.cursor;
    }
    return seen;
  },
  'r2-list-cursor-value': async (B) => { await B.put('cur~~~1', '1'); await B.put('cur~~~2', '2'); const l = await B.list({ prefix: 'cur', limit: 1 }); const n = await B.list({ prefix: 'cur', cursor: l.cursor }); return [l.cursor, n.objects.map((o) => o.key)]; },
  'r2-list-cursor-bad': (B) => B.list({ cursor: '%%%' }),
  'r2-list-object-shape': async (B) => { const o = (await B.list({ prefix: 'a', limit: 1 })).objects[0]; return obj(o); },
  'r2-get-onlyif-fail-shape': async (B) => obj(await B.get('a', { onlyIf: { etagMatches: 'nope' } })),
  'r2-put-shape-no-range': async (B) => { const o = await B.put('shape', 'x'); return ['range' in o, o.range]; },
  'r2-put-custom-metadata-empty': async (B) => (await B.put('cme', 'x', { customMetadata: {} })).customMetadata,
  'r2-put-http-metadata-empty-headers': async (B) => (await B.put('hme', 'x', { httpMetadata: new Headers() })).httpMetadata,
  'r2-put-md5-uppercase': async (B) => (await B.put('mu', 'hello world', { md5: '5EB63BBBE01EEED093CB22BB8F5ACDC3' })).etag,
  'r2-put-sha1-ok': async (B) => (await B.put('s1', 'x', { sha1: '11f6ad8ec52a2984abaafd7c3b516503785c2072' })).checksums.toJSON(),
  'r2-put-sha384-wrong-length': async (B) => Object.keys((await B.put('s3', 'x', { sha384: '1249e15f035ed34786a328d9d1f9a4dbe3d0a0f7a3e1e2d1e3c4b5a6978f6e5d4c3b2a1908f7e6d5c4b3a29180f7e6d' })).checksums.toJSON()),
  'r2-put-sha512-bad': (B) => B.put('s5', 'x', { sha512: '0'.repeat(128) }),
  'r2-get-onlyif-headers-modified-since': async (B) => { const o = await B.get('a', { onlyIf: new Headers({ 'if-modified-since': new Date(Date.now() + 86400000).toUTCString() }) }); return ['body' in o]; },
  'r2-get-onlyif-headers-unmodified-since': async (B) => { const o = await B.get('a', { onlyIf: new Headers({ 'if-unmodified-since': new Date(0).toUTCString() }) }); return ['body' in o]; },
  'r2-get-onlyif-match-and-unmodified': async (B) => { const o = await B.get('a', { onlyIf: { etagMatches: '5eb63bbbe01eeed093cb22bb8f5acdc3', uploadedBefore: new Date(0) } }); return ['body' in o]; },
  'r2-get-onlyif-none-match-and-modified': async (B) => { const o = await B.get('a', { onlyIf: { etagDoesNotMatch: 'other', uploadedAfter: new Date(Date.now() + 86400000) } }); return ['body' in o]; },
  'r2-put-onlyif-etag-matches-ok': async (B) => { await B.put('pc', 'one'); const h = await B.head('pc'); const o = await B.put('pc', 'two', { onlyIf: { etagMatches: h.etag } }); return [o !== null, await (await B.get('pc')).text()]; },
  'r2-put-onlyif-headers': async (B) => { const o = await B.put('pc', 'three', { onlyIf: new Headers({ 'if-none-match': '*' }) }); return [o, await (await B.get('pc')).text()]; },
  'r2-range-suffix-zero': async (B) => { try { const o = await B.get('a', { range: { suffix: 0 } }); return [o.range, await o.text()]; } catch (e) { return e.message; } },
  'r2-range-offset-at-size': (B) => B.get('a', { range: { offset: 11 } }),
  'r2-range-negative-offset': async (B) => { try { const o = await B.get('a', { range: { offset: -1 } }); return [o.range]; } catch (e) { return e.constructor.name + ':' + e.message; } },
  'r2-head-range-shape': async (B) => (await B.head('a')).range,
  'r2-list-limit-string': async (B) => (await B.list({ limit: '1' })).objects.length,
  'r2-list-start-after-everything': async (B) => (await B.list({ startAfter: '~' })).objects.length,
  'r2-list-prefix-no-match': async (B) => B.list({ prefix: 'zzz' }),
  'r2-list-delimiter-other-char': async (B) => { const l = await B.list({ prefix: 'cur', delimiter: '~' }); return [l.objects.map((o) => o.key), l.delimitedPrefixes]; },
  'r2-delete-empty-array': (B) => B.delete([]),
  'r2-key-dot': async (B) => { await B.put('.', 'dot'); return (await B.get('.')).text(); },
  'r2-key-1024': (B) => B.put('k'.repeat(1024), 'x').then((o) => o.key.length).catch((e) => e.message.slice(0, 40)),
  'r2-mpu-create': async (B) => { const u = await B.createMultipartUpload('mp/big', { httpMetadata: { contentType: 'a/b' }, customMetadata: { c: 'd' } }); return [u.constructor.name, u.key, typeof u.uploadId, Object.keys(u)]; },
  'r2-mpu-complete': async (B) => {
    const u = await B.createMultipartUpload('mp/big', { httpMetadata: { contentType: 'a/b' }, customMetadata: { c: 'd' } });
    const p1 = await u.uploadPart(1, new Uint8Array(5 * MiB).fill(97));
    const p2 = await u.uploadPart(2, 'tail');
    const o = await u.complete([p1, p2]);
    const r = await B.get('mp/big', { range: { suffix: 6 } });
    return [p1.partNumber, typeof p1.etag, obj(o), r.size, await r.text()];
  },
  'r2-mpu-one-part': async (B) => { const v = await B.createMultipartUpload('mp/one'); const a = await v.uploadPart(1, 'only'); const o = await v.complete([a]); return [o.size, o.etag, await (await B.get('mp/one')).text()]; },
  'r2-mpu-empty': async (B) => { const v = await B.createMultipartUpload('mp/empty'); return obj(await v.complete([])); },
  'r2-mpu-part-0': async (B) => { const v = await B.createMultipartUpload('mp/x'); return v.uploadPart(0, 'x'); },
  'r2-mpu-part-10001': async (B) => { const v = await B.createMultipartUpload('mp/x'); return v.uploadPart(10001, 'x'); },
  'r2-mpu-complete-twice': async (B) => { const v = await B.createMultipartUpload('mp/two'); const a = await v.uploadPart(1, 'a'); await v.complete([a]); return v.complete([a]); },
  'r2-mpu-resume': async (B) => { const v = await B.createMultipartUpload('mp/res'); const r = B.resumeMultipartUpload('mp/res', v.uploadId); const a = await r.uploadPart(1, 'xy'); const o = await v.complete([a]); return [r.constructor.name, r.key === 'mp/res', o.size]; },
  'r2-mpu-resume-unknown': async (B) => { const r = B.resumeMultipartUpload('mp/res', 'nope'); return [r.key, r.uploadId, await r.uploadPart(1, 'x').catch((e) => e.message)]; },
  'r2-mpu-resume-other-key': async (B) => { const v = await B.createMultipartUpload('mp/k1'); return B.resumeMultipartUpload('mp/k2', v.uploadId).uploadPart(1, 'x'); },
  'r2-mpu-abort': async (B) => { const v = await B.createMultipartUpload('mp/ab'); await v.uploadPart(1, 'xy'); await v.abort(); return v.uploadPart(2, 'z'); },
  'r2-mpu-abort-complete': async (B) => { const v = await B.createMultipartUpload('mp/ab2'); const a = await v.uploadPart(1, 'xy'); await v.abort(); return v.complete([a]); },
  'r2-mpu-abort-twice': async (B) => { const v = await B.createMultipartUpload('mp/ab3'); await v.abort(); return v.abort(); },
  'r2-mpu-bad-etag': async (B) => { const v = await B.createMultipartUpload('mp/be'); await v.uploadPart(1, 'xy'); return v.complete([{ partNumber: 1, etag: 'nope' }]); },
  'r2-mpu-missing-part': async (B) => { const v = await B.createMultipartUpload('mp/mp'); await v.uploadPart(1, 'xy'); return v.complete([{ partNumber: 2, etag: 'nope' }]); },
  'r2-mpu-small-part': async (B) => { const v = await B.createMultipartUpload('mp/sm'); const a = await v.uploadPart(1, 'aaa'); const b = await v.uploadPart(2, 'bbb'); return v.complete([a, b]); },
  'r2-mpu-out-of-order': async (B) => { const v = await B.createMultipartUpload('mp/oo'); const a = await v.uploadPart(1, new Uint8Array(5 * MiB)); const b = await v.uploadPart(2, 'b'); return v.complete([b, a]); },
  'r2-mpu-unequal-parts': async (B) => { const v = await B.createMultipartUpload('mp/ue'); const a = await v.uploadPart(1, new Uint8Array(5 * MiB)); const b = await v.uploadPart(2, new Uint8Array(6 * MiB)); const c = await v.uploadPart(3, 'c'); return v.complete([a, b, c]); },
  'r2-mpu-part-replaced': async (B) => { const v = await B.createMultipartUpload('mp/dp'); const a = await v.uploadPart(1, 'x'); const a2 = await v.uploadPart(1, 'yy'); const o = await v.complete([a2]); return [o.size, a.etag === a2.etag]; },
  'r2-mpu-old-part-etag': async (B) => { const v = await B.createMultipartUpload('mp/op'); const a = await v.uploadPart(1, 'x'); await v.uploadPart(1, 'yy'); return v.complete([a]); },
  'r2-mpu-not-listed': async (B) => (await B.list({ prefix: 'mp/' })).objects.map((o) => o.key),
  'r2-class': (B) => [B.constructor.name, typeof B.get, typeof B.put, typeof B.head, typeof B.list, typeof B.delete],
};

export default {
  async fetch(request, env) {
    const name = new URL(request.url).pathname.split('/')[2];
    const step = KV[name] ? () => KV[name](env.KV) : R2[name] ? () => R2[name](env.R2) : null;
    if (step === null) return new Response('no case ' + name, { status: 404 });
    let out;
    try {
      const v = await step();
      out = { ok: v === undefined ? 'undefined' : v };
    } catch (e) {
      out = { error: e.constructor.name, message: e.message };
    }
    return new Response(JSON.stringify(out, (k, v) => (v instanceof Map ? [...v] : v)), { headers: { 'content-type': 'application/json' } });
  },
};
