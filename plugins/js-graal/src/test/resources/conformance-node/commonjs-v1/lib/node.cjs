// Before nodejs_compat_v2 (../cases.json): a bare name in require() is a path in the bundle,
// resolved from this directory; a node: name is still the built-in.
const tried = (spec) => { try { return typeof require(spec); } catch (e) { return [e.name, e.message]; } };
module.exports = () => ['buffer', 'path', 'child_process', 'node:buffer', 'node:path'].map((spec) => [spec, tried(spec)]);
