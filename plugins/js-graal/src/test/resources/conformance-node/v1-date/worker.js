// nodejs_compat before 2024-09-23 (NodeConformanceTest): node: modules, but no Node globals, no
// bare specifiers, no node:sys, an empty process.env and the small process object.
import { Buffer } from 'node:buffer';
import process from 'node:process';
const err = async (p) => { try { await p; return 'no error'; } catch (e) { return e.name; } };
const cases = {
  'v1-globals': () => ({ Buffer: typeof globalThis.Buffer, process: typeof globalThis.process, global: typeof globalThis.global, setImmediate: typeof globalThis.setImmediate, works: Buffer.from('v1').toString('hex') }),
  'v1-process': () => ({ keys: Object.keys(process).sort(), env: process.env }),
  'v1-bare-and-sys': async () => ({ bare: await err(import('buffer')), sys: await err(import('node:sys')), zlib: await err(import('node:zlib')) }),
};
export default { async fetch(req) { return Response.json(await cases[new URL(req.url).pathname.split('/')[2]]()); } };
