// nodejs_compat with typed modules (NodeConformanceTest): a CommonJS module's require() of node:
// modules, bare names too under nodejs_compat_v2, as workerd resolves them.
import node from './lib/node.cjs';
import { Buffer } from 'node:buffer';
const cases = {
  'cjs-require-node': () => Object.fromEntries(Object.entries(node).map(([k, f]) => [k, f()])),
  'cjs-and-esm-share-modules': () => ({ same: (() => { try { return node.prefixed() === Buffer.from('hi').toString('hex'); } catch (e) { return e.message; } })() }),
};
export default { async fetch(req) { return Response.json(await cases[new URL(req.url).pathname.split('/')[2]]()); } };
