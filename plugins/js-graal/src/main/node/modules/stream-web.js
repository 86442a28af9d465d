// node:stream/web: the platform's Web streams (the same classes as the globals).
const names = ['ByteLengthQueuingStrategy', 'CompressionStream', 'CountQueuingStrategy', 'DecompressionStream',
  'ReadableByteStreamController', 'ReadableStream', 'ReadableStreamBYOBReader', 'ReadableStreamBYOBRequest',
  'ReadableStreamDefaultController', 'ReadableStreamDefaultReader', 'TextDecoderStream', 'TextEncoderStream',
  'TransformStream', 'TransformStreamDefaultController', 'WritableStream', 'WritableStreamDefaultController',
  'WritableStreamDefaultWriter'];
const web = {};
for (const n of names) {
  Object.defineProperty(web, n, { get: () => globalThis[n], enumerable: true, configurable: true });
}
export default web;
