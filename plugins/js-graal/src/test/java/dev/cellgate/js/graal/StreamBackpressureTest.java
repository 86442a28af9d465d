package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.js.graal.support.DatedWorkers;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestWorker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Backpressure of the streams (SPEC §16): a writer's desiredSize is the strategy's high-water mark
 * minus what is queued, its ready promise holds it back while that is not positive, and a pipe
 * reads no further ahead of a slow sink than workerd's one chunk. The values are workerd's (the
 * differential fixture conformance-web has the same cases against miniflare).
 */
class StreamBackpressureTest {
    @RegisterExtension
    static final DatedWorkers WORKERS = new DatedWorkers();

    static String run(String body) throws Exception {
        return WORKERS.answer("2026-07-01", "const tick = () => new Promise((r) => setTimeout(r, 0));\n"
                + "export default { async fetch() { " + body + " } };");
    }

    @Test
    void desiredSizeCountsTheQueuedChunks() throws Exception {
        assertThat(run("""
                let release;
                const ws = new WritableStream({ write() { return new Promise((r) => { release = r; }); } }, { highWaterMark: 3 });
                const w = ws.getWriter();
                const seen = [w.desiredSize];
                for (const c of ['a', 'b', 'c', 'd']) { w.write(c); seen.push(w.desiredSize); }
                if (release) release();
                await tick();
                seen.push(w.desiredSize);
                return Response.json(seen);"""))
                .as("3 minus the chunks queued (the one being written included), back up as a write completes")
                .isEqualTo("[3,2,1,0,-1,0]");
    }

    @Test
    void readyWaitsWhileTheQueueIsFull() throws Exception {
        assertThat(run("""
                let release;
                const ws = new WritableStream({ write() { return new Promise((r) => { release = r; }); } });
                const w = ws.getWriter();
                w.write(1);
                let ready = false;
                w.ready.then(() => { ready = true; });
                await tick();
                const before = ready;
                release(); await tick();
                return Response.json([before, ready]);"""))
                .isEqualTo("[false,true]");
    }

    @Test
    void aByteLengthStrategyCountsBytes() throws Exception {
        assertThat(run("""
                const ws = new WritableStream({ write() { return new Promise(() => {}); } }, new ByteLengthQueuingStrategy({ highWaterMark: 10 }));
                const w = ws.getWriter();
                w.write(new Uint8Array(4)); w.write(new Uint8Array(4));
                return Response.json(w.desiredSize);"""))
                .isEqualTo("2");
    }

    @Test
    void aFixedLengthStreamBodyTellsTheHostItsLength() throws Exception {
        String source = """
                export default { fetch(req) {
                  const { readable, writable } = new FixedLengthStream(11);
                  const w = writable.getWriter();
                  w.write(new TextEncoder().encode('fixed body!')); w.close();
                  return new URL(req.url).pathname === '/plain' ? new Response(new Response('chunked').body) : new Response(readable);
                } };""";
        try (TestWorker w = WORKERS.worker("2026-07-01", source)) {
            HttpResponseData fixed = w.get("http://x.test/fixed");
            assertThat(fixed.body().length()).as("the gateway sends Content-Length: 11, as workerd does").isEqualTo(11);
            assertThat(Responses.text(fixed)).isEqualTo("fixed body!");
            assertThat(w.get("http://x.test/plain").body().length()).as("any other stream: unknown length").isEqualTo(-1);
        }
    }

    @Test
    void aPipeWaitsForEachWriteOfASlowSink() throws Exception {
        assertThat(run("""
                let pulled = 0, i = 0;
                const rs = new ReadableStream({ pull(c) { pulled++; if (i < 5) c.enqueue(i++); else c.close(); } });
                const release = [];
                const ws = new WritableStream({ write() { return new Promise((r) => release.push(r)); } }, { highWaterMark: 4 });
                const done = rs.pipeTo(ws);
                for (let k = 0; k < 5; k++) await tick();
                const held = [pulled, release.length];
                while (release.length) { release.shift()(); for (let k = 0; k < 3; k++) await tick(); }
                await done;
                return Response.json([held, pulled]);"""))
                .as("one chunk pulled and written while the sink holds it; every chunk and the end pulled in the end")
                .isEqualTo("[[1,1],6]");
    }
}
