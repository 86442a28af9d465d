// The Java side (host/NodeHost.java), reached through the runtime file's `host` argument: the
// bundle is wrapped in `(function (host, internal) { … })` by build-node-modules.mjs.
/* global host */
export const nodeHost = () => host.node();

// Uint8Array of what the host returned (a java.nio.ByteBuffer, seen by GraalJS as a buffer).
export const fromHost = (b) => new Uint8Array(new ArrayBuffer(b));
