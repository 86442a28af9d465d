// Test-only binding wrapper (BindingSeamTest): what a real type's wrapper does, on a host object
// whose methods return CompletionStages and take bytes.
(function (host, internal) {
  'use strict';
  return function (target, settings, name) {
    return Object.freeze({
      name,
      prefix: settings.prefix,
      echo: (text) => internal.hostPromise(target.echo(String(text))),
      fail: (jsName, message) => internal.hostPromise(target.fail(String(jsName), String(message))),
      async reverse(bytes) {
        const u8 = new Uint8Array(bytes);
        const out = await internal.hostPromise(target.reverse(host.bindings().bytes(u8.buffer, u8.byteOffset, u8.byteLength)));
        return new Uint8Array(new ArrayBuffer(out));
      },
      opened: () => target.opened(),
      hidden: () => target.hidden(),
    });
  };
});
