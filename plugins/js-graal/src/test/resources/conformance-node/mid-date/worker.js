// nodejs_compat at 2025-06-01 (NodeConformanceTest): globals and a populated process.env, but the
// small process object (process v2 comes on 2025-09-15) and no node:os yet.
const err = async (p) => { try { await p; return 'no error'; } catch (e) { return [e.name, e.message]; } };
const cases = {
  'mid-process': () => ({ keys: Object.keys(process).sort(), env: process.env, cwd: typeof process.cwd, global: global === globalThis, buffer: Buffer.from('m').toString('hex') }),
  'mid-absent': async () => ({ os: await err(import('node:os')), bareOs: await err(import('os')), http: await err(import('node:http')), fs: await err(import('node:fs')) }),
};
export default { async fetch(req) { return Response.json(await cases[new URL(req.url).pathname.split('/')[2]]()); } };
