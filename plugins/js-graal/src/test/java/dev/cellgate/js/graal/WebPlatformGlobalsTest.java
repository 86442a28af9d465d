package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.js.graal.support.DatedWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The globals of SPEC §16 exist (at a compatibility date where workerd has them all), and what is
 * still missing (HTMLRewriter, the Cache API) throws a TypeError that names it: never a bare
 * ReferenceError, never a silent stub.
 */
class WebPlatformGlobalsTest {
    @RegisterExtension
    static final DatedWorkers WORKERS = new DatedWorkers();

    static String run(String date, String body) throws Exception {
        return WORKERS.answer(date, "export default { async fetch() { " + body + " } };");
    }

    @Test
    void everyGlobalOfSpec16Exists() throws Exception {
        assertThat(run("2026-07-01", """
                const names = ['FormData', 'File', 'Blob', 'CompressionStream', 'DecompressionStream', 'TextEncoderStream',
                  'TextDecoderStream', 'URLPattern', 'performance', 'navigator', 'self', 'scheduler', 'MessageChannel', 'MessagePort',
                  'EventSource', 'FixedLengthStream', 'IdentityTransformStream', 'ByteLengthQueuingStrategy', 'CountQueuingStrategy',
                  'ReadableStreamBYOBReader', 'ReadableByteStreamController', 'ReadableStreamBYOBRequest'];
                return Response.json(names.filter((n) => { try { return typeof globalThis[n] !== 'function' && typeof globalThis[n] !== 'object'; } catch (e) { return true; } }));"""))
                .as("names missing").isEqualTo("[]");
    }

    @Test
    void messageChannelFollowsTheCompatibilityDateAsInWorkerd() throws Exception {
        assertThat(run("2025-08-14", "return new Response(typeof MessageChannel + ' ' + typeof MessagePort);")).isEqualTo("undefined undefined");
        assertThat(run("2025-08-15", "return new Response(typeof MessageChannel + ' ' + typeof MessagePort);")).isEqualTo("function function");
    }
}
