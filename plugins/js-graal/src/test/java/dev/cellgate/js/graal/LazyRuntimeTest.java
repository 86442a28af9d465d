package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The runtime files that load on first use (lazy.js): all of them load, and only when touched. */
class LazyRuntimeTest {
    @RegisterExtension
    static final TestEngine engine = new TestEngine();

    static final String NAMES = "['Event', 'EventTarget', 'CustomEvent', 'AbortController', 'AbortSignal', 'URL', 'URLSearchParams',"
            + " 'ReadableStream', 'ReadableStreamDefaultController', 'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader',"
            + " 'ReadableByteStreamController', 'ReadableStreamBYOBRequest', 'IdentityTransformStream', 'FixedLengthStream',"
            + " 'TransformStream', 'TransformStreamDefaultController', 'WritableStream', 'WritableStreamDefaultController',"
            + " 'WritableStreamDefaultWriter', 'Blob', 'CryptoKey', 'SubtleCrypto', 'crypto', 'structuredClone', 'DurableObjectId',"
            + " 'DurableObjectNamespace', 'FormData', 'File', 'WebSocket', 'WebSocketPair', 'HTMLRewriter', 'EventSource',"
            + " 'CompressionStream', 'DecompressionStream', 'TextEncoderStream', 'TextDecoderStream', 'URLPattern',"
            + " 'ByteLengthQueuingStrategy', 'CountQueuingStrategy', 'MessageChannel', 'MessagePort', 'Navigator', 'navigator',"
            + " 'performance', 'scheduler', 'self', 'caches', 'Cache', 'CacheStorage']";

    /** A compatibility date at which workerd defines every name above (MessageChannel from 2025-08-15). */
    static ScriptBundle recent(String source) {
        return new ScriptBundle("test-deploy", "test-script", "index.js", Map.of("index.js", source), Map.of(), Map.of(), "2026-07-01",
                List.of());
    }

    @Test
    void everyLazyGlobalLoadsWhenFirstTouched() throws Exception {
        try (TestWorker w = engine.worker(recent("""
                export default { async fetch() {
                  const names = %s;
                  const lazyBefore = names.filter((n) => typeof Object.getOwnPropertyDescriptor(globalThis, n).get === 'function');
                  const types = Object.fromEntries(names.map((n) => [n, typeof globalThis[n]]));
                  const lazyAfter = names.filter((n) => typeof Object.getOwnPropertyDescriptor(globalThis, n).get === 'function');
                  return Response.json({ lazyBefore: lazyBefore.length, total: names.length, types, lazyAfter,
                    works: [new URL('https://a.test/x?y=1').searchParams.get('y'), structuredClone(new Map([[1, 2]])).get(1),
                      await new Blob(['ab']).text(), new AbortController().signal.aborted, self === globalThis] });
                } };""".formatted(NAMES)))) {
            JsonObject r = new JsonObject(w.text("http://x.test/"));
            assertThat(r.getInteger("lazyBefore")).as("all lazy until touched").isEqualTo(r.getInteger("total"));
            assertThat(r.getJsonArray("lazyAfter")).as("none lazy once touched").isEmpty();
            r.getJsonObject("types").forEach(e -> assertThat(e.getValue()).as(e.getKey()).isIn("function", "object"));
            assertThat(r.getJsonArray("works").encode()).isEqualTo("[\"1\",2,\"ab\",false,true]");
        }
    }

    @Test
    void aPlainResponseLoadsNoStreams() throws Exception {
        try (TestWorker w = engine.worker(Bundles.single("""
                const lazy = (n) => typeof Object.getOwnPropertyDescriptor(globalThis, n).get === 'function';
                export default { async fetch(req) {
                  const text = await new Response('body').text();
                  const json = await req.json().catch(() => null);
                  const before = [lazy('ReadableStream'), lazy('Blob'), lazy('URLSearchParams')];
                  const stream = new Response('s').body;
                  return Response.json({ text, json, before, after: [lazy('ReadableStream'), stream instanceof ReadableStream] });
                } };"""))) {
            assertThat(w.text("http://x.test/")).isEqualTo("{\"text\":\"body\",\"json\":null,\"before\":[true,true,true],"
                    + "\"after\":[false,true]}");
        }
    }

    @Test
    void userCodeMayReplaceALazyGlobal() throws Exception {
        try (TestWorker w = engine.worker(Bundles.single("""
                export default { fetch() {
                  globalThis.URL = class Mine {};
                  return new Response(new URL('x').constructor.name + ' ' + (new Request('https://a.test/p').url));
                } };"""))) {
            assertThat(w.text("http://x.test/")).isEqualTo("Mine https://a.test/p");
        }
    }
}
