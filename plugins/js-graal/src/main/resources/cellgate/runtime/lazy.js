// Lazy runtime modules: most of the Web platform is evaluated into a context only when a Worker
// first touches it, so a new context (a new cell, a new Worker) pays for what it uses. Each lazy
// file is listed with the globals and `internal` members it defines; until then those names are
// accessors whose first use evaluates the file (host.loadRuntime compiles it once per process and
// returns its function). A file that defines a name it does not declare here is a bug in this
// list, and loading it throws saying so, rather than leaving a name that silently never loads.
(function (host, internal) {
  'use strict';
  const MODULES = {
    'events.js': [['Event', 'EventTarget', 'CustomEvent'], ['eventDispatch']],
    'abort.js': [['AbortController', 'AbortSignal'], ['abortSignal', 'newAbortSignal']],
    'url.js': [['URL'], ['encodeSets', 'percentDecodeBytes', 'percentEncode']],
    'url-search-params.js': [['URLSearchParams'], ['encodeForm', 'paramsBind', 'paramsReset']],
    'streams.js': [['ReadableStream', 'ReadableStreamDefaultController', 'ReadableStreamDefaultReader'],
      ['pumpOne', 'readAllBytes', 'readerClosed', 'rsCancel', 'rsClose', 'rsDesired', 'rsDisturbed', 'rsEnqueue', 'rsError',
        'rsLock', 'rsRead', 'rsUnlock', 'rsWaitForDemand', 'streamFromHost']],
    'writable-streams.js': [['IdentityTransformStream', 'TransformStream', 'TransformStreamDefaultController', 'WritableStream',
      'WritableStreamDefaultController', 'WritableStreamDefaultWriter'],
    ['wsAbort', 'wsClose', 'wsDone', 'wsError', 'wsLock', 'wsSignal', 'wsState', 'wsUnlock', 'wsWrite']],
    'blob.js': [['Blob'], ['blobBytes']],
    'crypto.js': [['Crypto', 'CryptoKey', 'SubtleCrypto', 'crypto'], ['cryptoKeys']],
    'crypto-params.js': [[], ['cryptoParams']],
    'crypto-symmetric.js': [[], ['cryptoSymmetric']],
    'crypto-asymmetric.js': [[], ['cryptoAsymmetric']],
    'crypto-ec.js': [[], ['cryptoEc']],
    'crypto-rsa.js': [[], ['cryptoRsa']],
    'crypto-digest-stream.js': [[], ['DigestStream']],
    'structured-clone.js': [['structuredClone'], ['deserialize', 'serialize', 'rpcMark']],
    'durable-object-ids.js': [['DurableObjectId', 'DurableObjectNamespace'], ['DurableObjectId', 'idParts', 'newId', 'newNamespace']],
    'durable-object-stubs.js': [[], ['newStub', 'runRpc', 'doStubOp', 'doStubId']],
    'rpc-client.js': [[], ['rpcStub', 'rpcTransfer', 'rpcLocalStub', 'rpcProperty', 'rpcSettle', 'rpcFailure', 'rpcErrorClasses',
      'rpcSelf']],
    'rpc-server.js': [[], ['rpcExport', 'rpcRun', 'rpcRunExport', 'rpcDropExport']],
    'durable-object-state.js': [[], ['newCellGate', 'newDurableObjectState']],
    'storage-sql.js': [[], ['newSqlStorage', 'cursorStep']],
    'storage-kv.js': [[], ['newKvStorage', 'newSyncKv', 'compareKeys']],
    'storage.js': [[], ['newStorage', 'settleOpenTransactions']],
    'websocket.js': [['WebSocket', 'WebSocketPair', 'WebSocketRequestResponsePair', 'MessageEvent', 'CloseEvent', 'ErrorEvent'],
      ['isWebSocket', 'webSocketFromHandle', 'webSocketForResponse', 'hibernateWebSocket', 'hibernatedWebSocket', 'webSocketId',
        'webSocketState', 'dispatchWebSocketEvent']],
    'modules.js': [[], ['bundleModule']],
    'wasm.js': [['WebAssembly'], ['wasmModuleFromHost']],
    'source-maps.js': [[], ['installSourceMaps']],
    'unsupported.js': [['FormData', 'File', 'HTMLRewriter', 'EventSource', 'CompressionStream',
      'DecompressionStream', 'TextEncoderStream', 'TextDecoderStream', 'FixedLengthStream', 'ByteLengthQueuingStrategy',
      'CountQueuingStrategy', 'MessageChannel', 'MessagePort', 'BroadcastChannel', 'navigator', 'performance', 'scheduler', 'self'], []],
  };
  const loaded = new Set();
  const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  let declared = null; // [globals, members] of every module, computed at the first load

  function load(file) {
    if (loaded.has(file)) return;
    loaded.add(file);
    if (declared === null) {
      declared = [new Set(), new Set()];
      for (const f in MODULES) { MODULES[f][0].forEach((g) => declared[0].add(g)); MODULES[f][1].forEach((m) => declared[1].add(m)); }
    }
    const [globals, members] = MODULES[file];
    for (const g of globals) delete globalThis[g];
    for (const m of members) delete internal[m];
    const globalsBefore = new Set(Object.getOwnPropertyNames(globalThis));
    const internalBefore = new Set(Object.keys(internal));
    host.loadRuntime(file)(host, internal);
    // (a nested load of another lazy file may have added that file's names meanwhile)
    for (const g of Object.getOwnPropertyNames(globalThis)) {
      if (!globalsBefore.has(g) && !declared[0].has(g)) throw new Error('cellgate runtime: ' + file + ' defines global ' + g + ', which lazy.js does not declare');
    }
    for (const m of Object.keys(internal)) {
      if (!internalBefore.has(m) && !declared[1].has(m)) throw new Error('cellgate runtime: ' + file + ' defines internal.' + m + ', which lazy.js does not declare');
    }
    for (const g of globals) if (!own(globalThis, g)) throw new Error('cellgate runtime: ' + file + ' did not define global ' + g);
    for (const m of members) if (!own(internal, m)) throw new Error('cellgate runtime: ' + file + ' did not define internal.' + m);
  }

  function lazyGlobal(file, g) {
    Object.defineProperty(globalThis, g, {
      get() { load(file); return globalThis[g]; },
      set(v) { load(file); globalThis[g] = v; },
      configurable: true, enumerable: false,
    });
  }
  function lazyMember(file, m) {
    Object.defineProperty(internal, m, { get() { load(file); return internal[m]; }, configurable: true, enumerable: false });
  }
  for (const file in MODULES) {
    const [globals, members] = MODULES[file];
    for (let i = 0; i < globals.length; i++) lazyGlobal(file, globals[i]);
    for (let i = 0; i < members.length; i++) lazyMember(file, members[i]);
  }
});
