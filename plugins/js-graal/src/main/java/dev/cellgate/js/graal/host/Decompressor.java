package dev.cellgate.js.graal.host;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * The decompressing half of {@code DecompressionStream} ({@code compression.js}): java.util.zip's
 * {@link Inflater} for {@code deflate} (zlib), {@code deflate-raw} and {@code gzip} (a single RFC 1952
 * member: the header and the CRC-32/length trailer are read here). Output comes out in pieces of at
 * most {@link Compressor#CHUNK} bytes, one per {@link #next()}, so a reader that stops reading stops
 * the inflating too (a small input that inflates to gigabytes is never held at once). A failure is
 * reported with workerd's message through {@link #error()}; with {@code strict} (workerd's
 * {@code strict_compression_checks}) bytes after the end and an early close are failures too.
 */
public final class Decompressor {
    static final String FAILED = "Decompression failed.";
    static final String TRAILING = "Trailing bytes after end of compressed data";
    static final String INCOMPLETE = "Called close() on a decompression stream with incomplete data";
    private static final int RESERVED_FLAGS = 0xe0;

    private enum Phase { HEADER, BODY, TRAILER, DONE }

    private final boolean gzip;
    private final boolean strict;
    private final Inflater inflater;
    private final CRC32 crc = new CRC32();
    private final byte[] out = new byte[Compressor.CHUNK];
    private Phase phase;
    private byte[] framing = new byte[0]; // gzip header or trailer bytes gathered so far
    private long size;
    private String error;
    private boolean ended;
    // Inflater keeps no copy of its input we could read back: the unread tail is the end of the
    // array last given to setInput, which we keep for exactly this.
    private byte[] lastInput = new byte[0];

    Decompressor(String format, boolean strict) {
        Compressor.checkFormat(format);
        this.gzip = format.equals("gzip");
        this.strict = strict;
        this.inflater = new Inflater(!format.equals("deflate"));
        this.phase = gzip ? Phase.HEADER : Phase.BODY;
    }

    /** Takes a written chunk; false when it is already known to be bad (see {@link #error()}). */
    @HostAccess.Export
    public boolean push(Value buffer, int offset, int length) {
        if (ended) {
            return error == null;
        }
        byte[] b = HostBridge.bytes(buffer, offset, length);
        switch (phase) {
            case HEADER -> {
                framing = concat(framing, b, 0, b.length);
                int headerLength = gzipHeaderLength(framing);
                if (headerLength > 0) {
                    byte[] rest = Arrays.copyOfRange(framing, headerLength, framing.length);
                    framing = new byte[0];
                    phase = Phase.BODY;
                    setInput(rest);
                }
            }
            case BODY -> setInput(b);
            case TRAILER -> trailerBytes(b, 0, b.length);
            case DONE -> extra(b.length);
            default -> throw new IllegalStateException();
        }
        return error == null;
    }

    /** The next piece of output, or null when more input is needed, the data ended, or it failed. */
    @HostAccess.Export
    public ByteBuffer next() {
        if (ended || phase != Phase.BODY) {
            return null;
        }
        int n = 0;
        try {
            while (n < out.length && !inflater.finished()) {
                int k = inflater.inflate(out, n, out.length - n);
                if (k == 0) {
                    if (inflater.needsDictionary()) {
                        fail(FAILED);
                        return null;
                    }
                    if (inflater.needsInput()) {
                        break;
                    }
                }
                n += k;
            }
        } catch (DataFormatException e) {
            fail(FAILED);
            return null;
        }
        if (gzip) {
            crc.update(out, 0, n);
            size += n;
        }
        if (inflater.finished()) {
            int remaining = inflater.getRemaining();
            byte[] rest = remaining == 0 ? new byte[0] : lastInputTail(remaining);
            if (gzip) {
                phase = Phase.TRAILER;
                trailerBytes(rest, 0, rest.length);
            } else {
                phase = Phase.DONE;
                extra(rest.length);
            }
        }
        return n == 0 ? null : ByteBuffer.wrap(Arrays.copyOf(out, n));
    }

    /** The stream was closed: false (with {@link #error()}) when the data had not ended. */
    @HostAccess.Export
    public boolean finish() {
        if (error == null && phase != Phase.DONE && strict) {
            fail(INCOMPLETE);
        }
        end();
        return error == null;
    }

    /** workerd's message for the failure, or null. */
    @HostAccess.Export
    public String error() {
        return error;
    }

    /** Releases the native zlib state. */
    @HostAccess.Export
    public void end() {
        if (!ended) {
            ended = true;
            inflater.end();
        }
    }

    private void fail(String message) {
        if (error == null) {
            error = message;
        }
        end();
    }

    private void extra(int bytes) {
        if (bytes > 0 && strict) {
            fail(TRAILING);
        }
    }

    private void setInput(byte[] b) {
        lastInput = b;
        inflater.setInput(b);
    }

    private byte[] lastInputTail(int remaining) {
        return Arrays.copyOfRange(lastInput, lastInput.length - remaining, lastInput.length);
    }

    private void trailerBytes(byte[] b, int from, int to) {
        framing = concat(framing, b, from, to);
        if (framing.length < 8) {
            return;
        }
        long expectedCrc = le32(framing, 0);
        long expectedSize = le32(framing, 4);
        if (expectedCrc != crc.getValue() || expectedSize != (size & 0xffffffffL)) {
            fail(FAILED);
            return;
        }
        phase = Phase.DONE;
        extra(framing.length - 8);
        framing = new byte[0];
    }

    /** The length of a complete gzip header at the start of {@code h}, 0 when more bytes are needed; fails a bad one. */
    private int gzipHeaderLength(byte[] h) {
        if (h.length >= 1 && (h[0] & 0xff) != 0x1f || h.length >= 2 && (h[1] & 0xff) != 0x8b
                || h.length >= 3 && h[2] != 8 || h.length >= 4 && (h[3] & RESERVED_FLAGS) != 0) {
            fail(FAILED);
            return 0;
        }
        if (h.length < 10) {
            return 0;
        }
        int flags = h[3] & 0xff;
        int at = 10;
        if ((flags & 4) != 0) { // FEXTRA
            if (h.length < at + 2) {
                return 0;
            }
            at += 2 + ((h[at] & 0xff) | (h[at + 1] & 0xff) << 8);
        }
        for (int bit : new int[] {8, 16}) { // FNAME, FCOMMENT: zero-terminated
            if ((flags & bit) != 0) {
                while (at < h.length && h[at] != 0) {
                    at++;
                }
                if (at >= h.length) {
                    return 0;
                }
                at++;
            }
        }
        if ((flags & 2) != 0) { // FHCRC
            at += 2;
        }
        return at <= h.length ? at : 0;
    }

    private static long le32(byte[] b, int at) {
        return (b[at] & 0xffL) | (b[at + 1] & 0xffL) << 8 | (b[at + 2] & 0xffL) << 16 | (b[at + 3] & 0xffL) << 24;
    }

    private static byte[] concat(byte[] a, byte[] b, int from, int to) {
        byte[] r = Arrays.copyOf(a, a.length + (to - from));
        System.arraycopy(b, from, r, a.length, to - from);
        return r;
    }
}
