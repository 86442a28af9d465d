// readable-stream falls back to the `abort-controller` package only where the platform has none; ours has them.
module.exports = { get AbortController() { return globalThis.AbortController; }, get AbortSignal() { return globalThis.AbortSignal; } };
