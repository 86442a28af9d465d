// nodejs_compat before 2024-09-23 with typed modules (NodeConformanceTest): a CommonJS module's
// require() of a bare name is no built-in yet; node: names are.
import requireAll from './lib/node.cjs';
export default { async fetch() { return Response.json(requireAll()); } };
