// FormData, File and Blob cases of the conformance-web fixture.
import { errOf, tag, enc } from './util.js';

// A multipart body with its random boundary replaced, and the boundary's shape.
async function multipart(r) {
  const ct = r.headers.get('content-type');
  const boundary = ct.split('boundary=')[1];
  return { type: ct.replace(boundary, 'B'), boundaryShape: /^[0-9a-f]{32}$/.test(boundary), body: (await r.text()).split(boundary).join('B') };
}
const dump = async (fd) => Promise.all([...fd].map(async ([k, v]) => [k, typeof v === 'string' ? v : [tag(v), v.name, v.type, await v.text()]]));
const parse = (ct, body) => errOf(async () => dump(await new Response(body, { headers: ct === null ? {} : { 'content-type': ct } }).formData()));

export const formdataCases = {
  'blob-basics': async () => ({
    type: [new Blob([], { type: 'Text/HTML; Charset=UTF-8' }).type, new Blob([], { type: 'a\u00e9' }).type, new Blob([], { type: 'x\ty' }).type, new Blob([]).type],
    parts: await new Blob(['a', new Uint8Array([98]), new Uint16Array([99]).buffer, new Blob(['d']), new DataView(new Uint8Array([101]).buffer), 5, null]).text(),
    size: new Blob(['héllo']).size,
    none: new Blob().size,
    methods: await (async () => { const b = new Blob(['abc']); const ab = await b.arrayBuffer(); const by = await b.bytes(); return [ab instanceof ArrayBuffer, ab.byteLength, by instanceof Uint8Array, [...by], await b.text()]; })(),
    tag: tag(new Blob([])),
    badUtf8: await new Blob([new Uint8Array([0xff, 0x61])]).text(),
  }),
  'blob-slice': async () => {
    const b = new Blob(['hello world'], { type: 'text/plain' });
    return [await b.slice(6).text(), await b.slice(-5, -1).text(), await b.slice(3, 1).text(), b.slice(0, 5, 'X/Y').type, b.slice().type,
      b.slice(0, 2).size, await b.slice(1.7, 4.2).text(), await b.slice('2', '4').text(), await b.slice(NaN, 3).text(), await b.slice(2).slice(1, 3).text()];
  },
  'blob-stream': async () => {
    const r = new Blob(['abc', 'def']).stream().getReader();
    const chunks = [];
    for (;;) { const { done, value } = await r.read(); if (done) break; chunks.push([value.constructor.name, [...value]]); }
    const byob = new Blob(['abcdef']).stream().getReader({ mode: 'byob' });
    const part = await byob.read(new Uint8Array(4));
    return { chunks, empty: await new Blob([]).stream().getReader().read(), byob: [...part.value] };
  },
  'blob-errors': () => ({
    string: errOf(() => new Blob('abc')),
    number: errOf(() => new Blob(5)),
    nul: errOf(() => new Blob(null)),
    endings: errOf(() => new Blob(['a\nb'], { endings: 'native' })),
  }),
  'blob-structured-clone': () => errOf(() => { const c = structuredClone(new Blob(['a'], { type: 'x/y' })); return [tag(c), c.size, c.type]; }),
  'file-basics': async () => {
    const f = new File(['ab', new Uint8Array([99])], 'n.txt', { type: 'TEXT/Plain', lastModified: 42 });
    const plain = new File([], 5);
    const s = f.slice(1);
    return [f.name, f.type, f.size, f.lastModified, await f.text(), f instanceof Blob, tag(f), plain.name, typeof plain.lastModified,
      plain.lastModified > 1e12, tag(s), s.type, s.name === undefined, new File([], 'x', { lastModified: 1.5 }).lastModified,
      Object.getOwnPropertyNames(File.prototype).sort()];
  },
  'file-errors': () => [errOf(() => new File()), errOf(() => new File(['x'])), errOf(() => new File('x', 'n'))],
  'formdata-api': () => {
    const f = new FormData();
    f.append('a', '1'); f.append('b', '2'); f.append('a', '3');
    const before = [[...f.keys()], f.getAll('a'), f.get('a'), f.get('zz'), f.has('b'), f.has('zz')];
    f.set('a', '4');
    f.delete('b');
    const seen = [];
    f.forEach(function (v, k, o) { seen.push([k, v, o === f, this === undefined ? 'undefined' : this.t]); }, { t: 'this' });
    return { before, after: [...f.entries()], values: [...f.values()], seen, tag: tag(f), iterTag: tag(f.entries()),
      protos: Object.getOwnPropertyNames(FormData.prototype).sort(), ignoredArg: [...new FormData('x')] };
  },
  'formdata-values': async () => {
    const f = new FormData();
    f.append('field1', new Blob(['x']));
    f.append('f2', new File(['y'], ''));
    f.append('f3', new File(['z'], 'orig.txt', { type: 'a/b' }), 'renamed.txt');
    f.append('s', 'str', 'ignored-name');
    f.append(5, 6);
    f.append('n', null);
    f.append('u8', new Uint8Array([49]));
    f.set('typed', new Blob(['t'], { type: 'Text/Plain' }));
    return dump(f);
  },
  'formdata-errors': () => ({
    appendOne: errOf(() => new FormData().append('x')),
    appendUndefined: errOf(() => new FormData().append('x', undefined)),
    getNone: errOf(() => new FormData().get()),
    hasNone: errOf(() => new FormData().has()),
    forEachBad: errOf(() => new FormData().forEach(5)),
  }),
  'formdata-serialize': async () => {
    const f = new FormData();
    f.append('a', '1');
    f.append('b', new Blob(['hello'], { type: 'text/x-foo' }));
    f.append('c', new File(['xyz'], 'c.txt', { type: 'text/plain' }));
    f.append('é', 'ü\nv\r\nw');
    f.append('e', new Blob([new Uint8Array([0, 255])]), 'named.bin');
    return { response: await multipart(new Response(f)), empty: await multipart(new Response(new FormData())) };
  },
  'formdata-serialize-escapes': async () => {
    const f = new FormData();
    f.append('q"uote', 'v');
    f.append('line\nfeed', 'v');
    f.append('file', new File(['x'], 'f"n\r\n.txt'));
    return multipart(new Response(f));
  },
  'formdata-request-body': async () => {
    const f = new FormData();
    f.append('k', 'v');
    f.append('file', new File(['data'], 'd.txt', { type: 'text/plain' }));
    const r = new Request('https://example.com/', { method: 'POST', body: f });
    const copy = r.clone();
    return { request: await multipart(r), parsed: await dump(await copy.formData()),
      explicitType: new Request('https://example.com/', { method: 'POST', body: f, headers: { 'content-type': 'text/x' } }).headers.get('content-type') };
  },
  'formdata-parse-multipart': async () => ({
    basic: await parse('multipart/form-data; boundary=BOUND', '--BOUND\r\nContent-Disposition: form-data; name="field"\r\n\r\nvalue\r\n--BOUND\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nfile body\r\n--BOUND--\r\n'),
    emptyFilename: await parse('multipart/form-data; boundary=X', '--X\r\nContent-Disposition: form-data; name="a"\r\n\r\nline1\r\nline2\r\n--X\r\nContent-Disposition: form-data; name="b"; filename=""\r\n\r\n\r\n--X--'),
    lf: await parse('multipart/form-data; boundary=X', '--X\nContent-Disposition: form-data; name="a"\n\n1\n--X--'),
    rawNames: await parse('multipart/form-data; boundary=X', '--X\r\nContent-Disposition: form-data; name="a%22b"; filename="f%0A.txt"\r\nContent-Type: Image/PNG\r\n\r\nPNG\r\n--X--'),
    noType: await parse('multipart/form-data; boundary=X', '--X\r\nContent-Disposition: form-data; name="a"; filename="f.bin"\r\n\r\nbin\r\n--X--'),
    preambleEpilogue: await parse('multipart/form-data; boundary=X', 'preamble\r\n--X\r\ncontent-disposition: form-data; name="a"\r\nX-Other: y\r\n\r\n1\r\n--X--\r\n--X\r\nContent-Disposition: form-data; name="b"\r\n\r\n2\r\n--X--'),
    params: await parse('multipart/form-data; boundary=X', '--X\r\nContent-Disposition:form-data;filename="q\\"r";name="a";name="b"\r\n\r\n1\r\n--X--'),
    repeated: await parse('multipart/form-data; boundary=X', '--X\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--X\r\nContent-Disposition: form-data; name="a"\r\n\r\n\u00e9\r\n--X--'),
    empty: await parse('multipart/form-data; boundary=X', '--X--'),
    bytes: await errOf(async () => {
      const body = cat2([enc.encode('--X\r\nContent-Disposition: form-data; name="a"; filename="b"\r\n\r\n'), new Uint8Array([0xff, 0x00, 0x80]), enc.encode('\r\n--X--')]);
      const f = await new Response(body, { headers: { 'content-type': 'multipart/form-data; boundary=X' } }).formData();
      return [...new Uint8Array(await f.get('a').arrayBuffer())];
    }),
  }),
  'formdata-parse-urlencoded': async () => ({
    basic: await parse('application/x-www-form-urlencoded', 'a=1&b=%20x+y&a=2&c'),
    edges: await parse('application/x-www-form-urlencoded; charset=UTF-8', 'a=%C3%A9&&b=c=d&=e&f'),
    percent: await parse('application/x-www-form-urlencoded', 'a=%2&b=%&c=%4g&d=%41%4&e=+%2B&f=%e9&g=%C3&x=%zz'),
    empty: await parse('application/x-www-form-urlencoded', ''),
    upper: await parse('APPLICATION/X-WWW-FORM-URLENCODED', 'k=v'),
  }),
  'formdata-parse-errors': async () => {
    const mp = (body) => parse('multipart/form-data; boundary=X', body);
    return {
      noName: await mp('--X\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--X--'),
      emptyName: await mp('--X\r\nContent-Disposition: form-data; name=""\r\n\r\n1\r\n--X--'),
      truncated: await mp('--X\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--X'),
      noDisposition: await mp('--X\r\nContent-Type: text/plain\r\n\r\n1\r\n--X--'),
      attachment: await mp('--X\r\nContent-Disposition: attachment; name="a"\r\n\r\n1\r\n--X--'),
      upperFormData: await mp('--X\r\nContent-Disposition: FORM-DATA; name="a"\r\n\r\n1\r\n--X--'),
      empty: await mp(''),
      garbage: await mp('garbage'),
      noHeaderEnd: await mp('--X\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--X\r\n\r\n--X--'),
      badBoundaryEnd: await mp('--X\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--Xz\r\n--X--'),
      continuation: await mp('--X\r\n  Content-Disposition: form-data; name="a"\r\n\r\n1\r\n--X--'),
      noCrlfBefore: await mp('--X\r\nContent-Disposition: form-data; name="a"\r\n\r\n1--X--'),
      rawCr: await mp('--X\r\nContent-Disposition: form-data; name="a\rb"\r\n\r\n1\r\n--X--'),
      used: await errOf(async () => { const r = new Response('a=1', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }); await r.formData(); return r.formData(); }),
    };
  },
  'formdata-parse-content-types': async () => {
    const body = '--X\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--X--';
    return {
      text: await parse('text/plain', 'a=1'),
      none: await parse(null, 'a=1'),
      noBoundary: await parse('multipart/form-data', body),
      emptyBoundary: await parse('multipart/form-data; boundary=', body),
      quoted: await parse('multipart/form-data; boundary="quoted b"', '--quoted b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--quoted b--'),
      mixedCase: await parse('Multipart/Form-Data; Boundary=X; charset=utf-8', body),
    };
  },
  'formdata-incoming-multipart': async (req) => dump(await req.formData()),
  'formdata-incoming-urlencoded': async (req) => [await dump(await req.clone().formData()), req.headers.get('content-type')],
  'blob-from-body': async (req) => {
    const b = await new Response('x', { headers: { 'content-type': 'Text/Plain; charset=UTF-8' } }).blob();
    const q = await new Response('x', { headers: { 'content-type': 'text/plain; charset="a b"; Foo=Bar' } }).blob();
    const bad = await new Response('x', { headers: { 'content-type': 'not a type' } }).blob();
    const incoming = await req.blob();
    return [b.type, tag(b), q.type, bad.type, incoming.type, await incoming.text(), new Response(new File(['q'], 'f', { type: 'image/png' })).headers.get('content-type')];
  },
  'formdata-fetch-upload': async (req) => {
    const f = new FormData();
    f.append('greeting', 'hi');
    f.append('doc', new File(['file contents'], 'doc.txt', { type: 'text/plain' }));
    const r = await fetch(req.headers.get('x-origin') + '/echo', { method: 'POST', body: f });
    const echo = await r.json();
    const ct = echo.headers['content-type'];
    const boundary = ct.split('boundary=')[1];
    return { type: ct.replace(boundary, 'B'), body: echo.body.split(boundary).join('B'), length: echo.headers['content-length'] === String(enc.encode(echo.body).byteLength) };
  },
};

function cat2(arr) {
  const out = new Uint8Array(arr.reduce((n, a) => n + a.byteLength, 0));
  let i = 0;
  for (const a of arr) { out.set(a, i); i += a.byteLength; }
  return out;
}
