package dev.cellgate.js.graal.host;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * The compressing half of {@code CompressionStream} ({@code compression.js}): java.util.zip's
 * {@link Deflater} at zlib's default level, in the three formats of the Compression standard
 * ({@code deflate} = zlib, {@code deflate-raw}, {@code gzip} = RFC 1952 framing written here).
 * JavaScript pushes each written chunk and then takes the output with {@link #next()} in pieces of at
 * most {@link #CHUNK} bytes, as workerd enqueues them; one instance per stream, used only on its
 * context's thread.
 */
public final class Compressor {
    /** workerd's output buffer: the largest chunk a compression stream enqueues. */
    public static final int CHUNK = 4096;
    private static final byte[] GZIP_HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};

    private final Deflater deflater;
    private final boolean gzip;
    private final CRC32 crc = new CRC32();
    private final byte[] out = new byte[CHUNK];
    private byte[] pending; // framing bytes not yet handed out (gzip header or trailer)
    private int pendingAt;
    private long size;
    private boolean trailerQueued;
    private boolean ended;

    Compressor(String format) {
        checkFormat(format);
        this.gzip = format.equals("gzip");
        this.deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, !format.equals("deflate"));
        this.pending = gzip ? GZIP_HEADER.clone() : null;
    }

    /** Takes a written chunk ({@code length} bytes of {@code buffer} from {@code offset}). */
    @HostAccess.Export
    public void push(Value buffer, int offset, int length) {
        byte[] b = HostBridge.bytes(buffer, offset, length);
        if (gzip) {
            crc.update(b);
            size += b.length;
        }
        deflater.setInput(b);
    }

    /** The stream was closed: what {@link #next()} hands out from now on ends the format. */
    @HostAccess.Export
    public void finish() {
        deflater.finish();
    }

    /** The next piece of output, or null when the pushed input is used up (or, after finish, all is out). */
    @HostAccess.Export
    public ByteBuffer next() {
        if (ended) {
            return null;
        }
        int n = 0;
        while (n < CHUNK) {
            if (pending != null) {
                int k = Math.min(pending.length - pendingAt, CHUNK - n);
                System.arraycopy(pending, pendingAt, out, n, k);
                n += k;
                pendingAt += k;
                if (pendingAt == pending.length) {
                    pending = null;
                    pendingAt = 0;
                }
                continue;
            }
            if (deflater.finished()) {
                if (gzip && !trailerQueued) {
                    trailerQueued = true;
                    pending = trailer();
                    continue;
                }
                break;
            }
            int k = deflater.deflate(out, n, CHUNK - n, Deflater.NO_FLUSH);
            if (k == 0 && deflater.needsInput() && !deflater.finished()) {
                break;
            }
            n += k;
        }
        if (deflater.finished() && pending == null && (!gzip || trailerQueued)) {
            end();
        }
        return n == 0 ? null : ByteBuffer.wrap(java.util.Arrays.copyOf(out, n));
    }

    /** Releases the native zlib state (an aborted stream). */
    @HostAccess.Export
    public void end() {
        ended = true;
        deflater.end();
    }

    /** compression.js has checked the name; anything else here is a bug. */
    static void checkFormat(String format) {
        if (!format.equals("gzip") && !format.equals("deflate") && !format.equals("deflate-raw")) {
            throw new IllegalArgumentException("unknown compression format " + format);
        }
    }

    private byte[] trailer() {
        long c = crc.getValue();
        long s = size & 0xffffffffL;
        return new byte[] {(byte) c, (byte) (c >> 8), (byte) (c >> 16), (byte) (c >> 24),
            (byte) s, (byte) (s >> 8), (byte) (s >> 16), (byte) (s >> 24)};
    }
}
