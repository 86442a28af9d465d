package dev.cellgate.replicator.wal.sqlite;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads the transactions committed to a database's {@code -wal} file since the last call.
 *
 * <p>A frame is valid only when its salts equal the header's and its cumulative checksum matches;
 * the first invalid frame ends the log (SQLite's own rule: frames past it are leftovers of an
 * older generation or of a transaction that never committed). Only whole transactions are
 * returned: frames after the last valid commit frame stay unread until their commit frame exists.
 *
 * <p>The WAL only starts over (new salts, or truncated to zero) after a checkpoint that copied
 * every frame into the database. The replicator is the only one who checkpoints (automatic
 * checkpoints are off), and it reads every frame before it checkpoints; so it tells the reader
 * about each checkpoint with {@link #checkpointed()}, and a restart the reader was not told about
 * means frames were lost: that is a {@link WalException}.
 */
public final class WalFileReader {
    static final int HEADER = 32;
    static final int FRAME_HEADER = 24;
    private static final int MAGIC = 0x377f0682;

    private final Path wal;
    private long offset;          // bytes consumed: 0 = no generation adopted yet
    private int salt1;
    private int salt2;
    private int pageSize;
    private boolean bigEndian;
    private int sum0;
    private int sum1;
    private boolean restartExpected = true;

    public WalFileReader(Path wal) {
        this.wal = wal;
    }

    /** A checkpoint copied every frame: the next write may start a new WAL generation. */
    public void checkpointed() {
        restartExpected = true;
    }

    public long fileSize() throws IOException {
        try (FileChannel ch = FileChannel.open(wal, StandardOpenOption.READ)) {
            return ch.size();
        } catch (NoSuchFileException e) {
            return 0;
        }
    }

    /** Every transaction committed since the previous call, oldest first. */
    public List<WalTxn> readCommitted() throws IOException {
        try (FileChannel ch = FileChannel.open(wal, StandardOpenOption.READ)) {
            return read(ch);
        } catch (NoSuchFileException e) {
            return startOver("the WAL file is gone");
        }
    }

    private List<WalTxn> read(FileChannel ch) throws IOException {
        long size = ch.size();
        if (size < HEADER) {
            return startOver("the WAL file shrank to " + size + " bytes");
        }
        byte[] head = readFully(ch, 0, HEADER);
        ByteBuffer h = ByteBuffer.wrap(head);
        int magic = h.getInt(0);
        int ps = h.getInt(8);
        long hsum = WalChecksum.fold(head, 0, 24, (magic & 1) == 1, 0, 0);
        boolean validHeader = (magic & ~1) == MAGIC && h.getInt(4) == 3007000
                && ps >= 512 && ps <= 65536 && Integer.bitCount(ps) == 1
                && WalChecksum.first(hsum) == h.getInt(24) && WalChecksum.second(hsum) == h.getInt(28);
        if (!validHeader) {
            return startOver("the WAL header is no longer valid");
        }
        if (offset == 0 || h.getInt(16) != salt1 || h.getInt(20) != salt2) {
            if (offset > HEADER && !restartExpected) {
                throw new WalException("WAL " + wal + " started a new generation although no checkpoint ran: frames may be lost");
            }
            salt1 = h.getInt(16);
            salt2 = h.getInt(20);
            pageSize = ps;
            bigEndian = (magic & 1) == 1;
            sum0 = h.getInt(24);
            sum1 = h.getInt(28);
            offset = HEADER;
            restartExpected = false;
        }
        if (size < offset) {
            return startOver("the WAL file shrank below the frames already read");
        }
        long avail = size - offset;
        if (avail > Integer.MAX_VALUE - 64) {
            throw new WalException("WAL " + wal + " holds " + avail + " unread bytes: too many to ship at once");
        }
        return avail < FRAME_HEADER + pageSize ? List.of() : parseFrames(readFully(ch, offset, (int) avail));
    }

    private List<WalTxn> parseFrames(byte[] buf) {
        List<WalTxn> out = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(buf);
        int frame = FRAME_HEADER + pageSize;
        int s0 = sum0;
        int s1 = sum1;
        int pos = 0;
        int consumed = 0;
        SortedMap<Integer, byte[]> pages = new TreeMap<>();
        while (pos + frame <= buf.length) {
            int pgno = b.getInt(pos);
            int commit = b.getInt(pos + 4);
            if (pgno < 1 || b.getInt(pos + 8) != salt1 || b.getInt(pos + 12) != salt2) {
                break;
            }
            long f = WalChecksum.fold(buf, pos, 8, bigEndian, s0, s1);
            f = WalChecksum.fold(buf, pos + FRAME_HEADER, pageSize, bigEndian, WalChecksum.first(f), WalChecksum.second(f));
            if (WalChecksum.first(f) != b.getInt(pos + 16) || WalChecksum.second(f) != b.getInt(pos + 20)) {
                break;
            }
            s0 = WalChecksum.first(f);
            s1 = WalChecksum.second(f);
            pages.put(pgno, Arrays.copyOfRange(buf, pos + FRAME_HEADER, pos + frame));
            pos += frame;
            if (commit != 0) {
                out.add(new WalTxn(pageSize, commit, pages));
                pages = new TreeMap<>();
                consumed = pos;
                sum0 = s0;
                sum1 = s1;
            }
        }
        offset += consumed;
        return out;
    }

    private List<WalTxn> startOver(String why) {
        if (offset > HEADER && !restartExpected) {
            throw new WalException("WAL " + wal + ": " + why + " although no checkpoint ran: frames may be lost");
        }
        offset = 0;
        return List.of();
    }

    private static byte[] readFully(FileChannel ch, long pos, int len) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(len);
        while (buf.hasRemaining()) {
            int n = ch.read(buf, pos + buf.position());
            if (n < 0) {
                throw new IOException("unexpected end of file at " + (pos + buf.position()));
            }
        }
        return buf.array();
    }
}
