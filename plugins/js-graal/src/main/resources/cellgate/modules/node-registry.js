// The node: modules' way back to the runtime (cellgate/modules/node/*.js import it). The main
// module wrapper imports this first under nodejs_compat/nodejs_als (GraalLoadedScript), while
// dispatch.js still exposes the runtime's internals; this module keeps them for node: modules
// imported later, e.g. by import() in a request. It hands out module values, nothing else.
const internal = globalThis[Symbol.for('cellgate.internal')];

export const nodeModule = (name) => internal.nodeModule(name);
export const nodePick = (value, module, name) => internal.nodePick(value, module, name);
