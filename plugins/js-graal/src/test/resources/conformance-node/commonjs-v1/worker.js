// nodejs_compat before 2024-09-23 with typed modules (NodeConformanceTest): a CommonJS module's
// require() of a bare name is no built-in yet; node: names are.
import node from './lib/node.cjs';
const cases = {
  'cjs-require-node-v1': () => Object.fromEntries(Object.entries(node).map(([k, f]) => [k, f()])),
};
export default { async fetch(req) { return Response.json(await cases[new URL(req.url).pathname.split('/')[2]]()); } };
