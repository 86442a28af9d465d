package dev.cellgate.replicator.wal.sqlite;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * SQLite's WAL checksum: over pairs of 32-bit words {@code x0, x1},
 * {@code s0 += x0 + s1; s1 += x1 + s0}, words read in the byte order the WAL header's magic
 * announces. Each frame's checksum continues from the previous frame's (cumulative).
 */
final class WalChecksum {
    private static final VarHandle BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private WalChecksum() {
    }

    /** Returns {@code (s0 << 32) | s1} after folding {@code len} bytes (a multiple of 8) into {@code (s0, s1)}. */
    static long fold(byte[] b, int off, int len, boolean bigEndian, int s0, int s1) {
        VarHandle h = bigEndian ? BE : LE;
        int end = off + len;
        for (int i = off; i < end; i += 8) {
            s0 += (int) h.get(b, i) + s1;
            s1 += (int) h.get(b, i + 4) + s0;
        }
        return ((long) s0 << 32) | (s1 & 0xffffffffL);
    }

    static int first(long folded) {
        return (int) (folded >>> 32);
    }

    static int second(long folded) {
        return (int) folded;
    }
}
