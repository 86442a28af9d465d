// Dates: Workers run in UTC (the context's time zone is UTC, see GraalJsEngine.newContext).
// GraalJS names that zone "GMT" in Date strings where workerd (V8 with ICU) says
// "Coordinated Universal Time"; the strings are otherwise identical.
(function (host, internal) {
  'use strict';
  const proto = Date.prototype;
  for (const name of ['toString', 'toTimeString']) {
    const original = proto[name];
    Object.defineProperty(proto, name, {
      value: { [name]() { return original.call(this).replace(/ \(GMT\)$/, ' (Coordinated Universal Time)'); } }[name],
      writable: true, configurable: true, enumerable: false,
    });
  }
});
