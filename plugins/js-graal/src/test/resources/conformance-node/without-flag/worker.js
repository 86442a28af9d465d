// nodejs_compat absent (NodeConformanceTest): node: modules are refused as workerd refuses them,
// except node:process, which workerd resolves to a small object; no Node globals.
const err = async (p) => { try { await p; return 'no error'; } catch (e) { return [e.name, e.message]; } };
const cases = {
  'no-flag-imports': async () => ({ buffer: await err(import('node:buffer')), asyncHooks: await err(import('node:async_hooks')), events: await err(import('node:events')) }),
  'no-flag-globals': () => ({ Buffer: typeof globalThis.Buffer, process: typeof globalThis.process, global: typeof globalThis.global, setImmediate: typeof globalThis.setImmediate }),
  'no-flag-process-module': async () => {
    const m = await import('node:process');
    return { keys: Object.keys(m).sort(), env: m.default.env, platform: m.platform, builtin: m.default.getBuiltinModule('node:buffer') ?? 'undefined' };
  },
};
export default { async fetch(req) { return Response.json(await cases[new URL(req.url).pathname.split('/')[2]]()); } };
