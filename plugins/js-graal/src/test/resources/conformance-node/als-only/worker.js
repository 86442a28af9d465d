// nodejs_als alone (NodeConformanceTest): node:async_hooks and nothing else of Node.
import { AsyncLocalStorage } from 'node:async_hooks';
const err = async (p) => { try { await p; return 'no error'; } catch (e) { return [e.name, e.message]; } };
const als = new AsyncLocalStorage();
const cases = {
  'als-only-propagates': async () => als.run('s', async () => { await new Promise((r) => setTimeout(r, 1)); await null; return [als.getStore(), await Promise.resolve().then(() => als.getStore())]; }),
  'als-only-nothing-else': async () => ({ buffer: await err(import('node:buffer')), process: typeof globalThis.process, Buffer: typeof globalThis.Buffer }),
};
export default { async fetch(req) { return Response.json(await cases[new URL(req.url).pathname.split('/')[2]]()); } };
