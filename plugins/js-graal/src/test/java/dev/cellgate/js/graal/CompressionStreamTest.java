package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.js.graal.support.DatedWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Compression streams on java.util.zip (host/Compressor, host/Decompressor): output is made as it is
 * read, so a small input that inflates to a lot is never held at once, and workerd's failures keep
 * their messages and depend on the compatibility date as in workerd (strict_compression_checks).
 * Byte-for-byte equality with workerd is in the differential fixture conformance-web.
 */
class CompressionStreamTest {
    @RegisterExtension
    static final DatedWorkers WORKERS = new DatedWorkers();

    static String run(String date, String body) throws Exception {
        String source = """
                const tick = () => new Promise((r) => setTimeout(r, 0));
                const cat = (a) => { const o = new Uint8Array(a.reduce((n, x) => n + x.byteLength, 0)); let i = 0; for (const x of a) { o.set(x, i); i += x.byteLength; } return o; };
                async function all(ts, chunks) {
                  const w = ts.writable.getWriter();
                  const out = (async () => { const got = []; for await (const c of ts.readable) got.push(c); return got; })();
                  for (const c of chunks) await w.write(c);
                  await w.close();
                  return out;
                }
                export default { async fetch() { %s } };""".formatted(body);
        return WORKERS.answer(date, source);
    }

    @Test
    void inflatingWaitsForTheReader() throws Exception {
        assertThat(run("2026-07-01", """
                const packed = cat(await all(new CompressionStream('gzip'), [new Uint8Array(2 << 20)]));
                const ds = new DecompressionStream('gzip');
                const w = ds.writable.getWriter();
                let written = false;
                w.write(packed).then(() => { written = true; });
                const r = ds.readable.getReader();
                const first = await r.read();
                const second = await r.read();
                for (let k = 0; k < 5; k++) await tick();
                const heldBack = !written;
                let total = first.value.byteLength + second.value.byteLength;
                for (;;) { const { done, value } = await r.read(); if (done) break; total += value.byteLength; if (total >= 2 << 20) w.close(); }
                return Response.json([packed.byteLength < 10000, first.value.byteLength, heldBack, written, total]);"""))
                .as("2 MiB of zeros: 4 KiB pieces, the write held back until all is read")
                .isEqualTo("[true,4096,true,true,2097152]");
    }

    @Test
    void failuresCarryWorkerdsMessages() throws Exception {
        assertThat(run("2026-07-01", """
                const packed = cat(await all(new CompressionStream('deflate'), [new TextEncoder().encode('hello hello')]));
                const err = (p) => p.then(() => 'ok', (e) => e.name + ': ' + e.message);
                const trailing = cat([packed, new Uint8Array([1, 2, 3])]);
                return Response.json([
                  await err(all(new DecompressionStream('deflate'), [new TextEncoder().encode('not deflate data')])),
                  await err(all(new DecompressionStream('deflate'), [packed.subarray(0, packed.byteLength - 2)])),
                  await err(all(new DecompressionStream('deflate'), [trailing])),
                  await err((async () => new CompressionStream('br'))()),
                ]);"""))
                .isEqualTo("[\"TypeError: Decompression failed.\",\"TypeError: Called close() on a decompression stream with incomplete data\","
                        + "\"TypeError: Trailing bytes after end of compressed data\","
                        + "\"TypeError: The compression format must be either 'deflate', 'deflate-raw' or 'gzip'.\"]");
    }

    @Test
    void beforeStrictCompressionChecksTrailingBytesAndAnEarlyCloseAreAccepted() throws Exception {
        assertThat(run("2023-07-31", """
                const packed = cat(await all(new CompressionStream('gzip'), [new TextEncoder().encode('hello hello')]));
                const text = async (chunks) => new TextDecoder().decode(cat(await all(new DecompressionStream('gzip'), chunks)));
                return Response.json([await text([cat([packed, new Uint8Array([9, 9])])]), await text([packed.subarray(0, packed.byteLength - 4)])]);"""))
                .isEqualTo("[\"hello hello\",\"hello hello\"]");
    }
}
