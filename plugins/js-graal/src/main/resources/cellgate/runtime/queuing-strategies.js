// ByteLengthQueuingStrategy and CountQueuingStrategy (Streams standard; workerd keeps the
// highWaterMark as given and hands out the size function per instance).
(function (host, internal) {
  'use strict';
  const kHwm = Symbol('QueuingStrategy.highWaterMark');
  const kSizeFn = Symbol('QueuingStrategy.size');

  function init(self, name, options, size) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError("Failed to construct '" + name + "': constructor parameter 1 is not of type 'QueuingStrategyInit'.");
    }
    self[kHwm] = options.highWaterMark === undefined ? undefined : Number(options.highWaterMark);
    self[kSizeFn] = size;
  }

  class ByteLengthQueuingStrategy {
    constructor(options) { init(this, 'ByteLengthQueuingStrategy', options, (chunk) => chunk.byteLength); }
    get highWaterMark() { return this[kHwm]; }
    get size() { return this[kSizeFn]; }
    get [Symbol.toStringTag]() { return 'ByteLengthQueuingStrategy'; }
  }
  class CountQueuingStrategy {
    constructor(options) { init(this, 'CountQueuingStrategy', options, () => 1); }
    get highWaterMark() { return this[kHwm]; }
    get size() { return this[kSizeFn]; }
    get [Symbol.toStringTag]() { return 'CountQueuingStrategy'; }
  }

  internal.defineGlobal('ByteLengthQueuingStrategy', ByteLengthQueuingStrategy);
  internal.defineGlobal('CountQueuingStrategy', CountQueuingStrategy);
});
