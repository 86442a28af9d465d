package dev.cellgate.replicator.wal.replica;

import dev.cellgate.replicator.wal.format.SegmentCodec;
import dev.cellgate.replicator.wal.format.SegmentHeader;
import dev.cellgate.replicator.wal.format.SegmentKind;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Consecutive committed transactions merged into one segment: the last image of each page, the
 * txid range, the database checksum before the first and after the last. Every commit merged in
 * shares {@link #done}, which completes when the segment is durable and ownership was confirmed.
 */
final class CommitBatch {
    final CompletableFuture<Void> done = new CompletableFuture<>();
    private final long preChecksum;
    private final int prePages;
    private final TreeMap<Integer, byte[]> pages = new TreeMap<>();
    private long minTxid;
    private long maxTxid;
    private long postChecksum;
    private int commitPages;
    private int lowPages;
    private int pageSize;
    private long pageBytes;
    private String key;

    CommitBatch(long preChecksum, int prePages) {
        this.preChecksum = preChecksum;
        this.prePages = prePages;
        this.postChecksum = preChecksum;
        this.commitPages = prePages;
        this.lowPages = prePages;
    }

    /**
     * Merges pages into the batch: a transaction ({@code txid > 0}) or the seed of a new database
     * ({@code txid == 0}: pages that were in the file before the first transaction).
     */
    void add(long txid, int pageSize, int newCommitPages, int low, SortedMap<Integer, byte[]> txPages, long post) {
        if (txid > 0) {
            if (minTxid == 0) {
                minTxid = txid;
            } else if (txid != maxTxid + 1) {
                throw new IllegalStateException("txid " + txid + " does not follow " + maxTxid);
            }
            maxTxid = txid;
        }
        this.pageSize = pageSize;
        if (newCommitPages < commitPages) {
            for (byte[] dropped : pages.tailMap(newCommitPages + 1).values()) {
                pageBytes -= dropped.length;
            }
            pages.tailMap(newCommitPages + 1).clear();
        }
        for (var e : txPages.entrySet()) {
            if (e.getKey() <= newCommitPages) {
                byte[] old = pages.put(e.getKey(), e.getValue());
                pageBytes += e.getValue().length - (old == null ? 0 : old.length);
            }
        }
        commitPages = newCommitPages;
        lowPages = Math.min(lowPages, low);
        postChecksum = post;
    }

    /** Merges a later batch (l1 compaction): same rules as adding its transactions one by one. */
    void absorb(CommitBatch later) {
        if (minTxid == 0) {
            minTxid = later.minTxid;
        } else if (later.minTxid != maxTxid + 1) {
            throw new IllegalStateException("batch " + later.minTxid + " does not follow " + maxTxid);
        }
        add(0, later.pageSize, later.lowPages, later.lowPages, new TreeMap<>(), postChecksum);
        add(0, later.pageSize, later.commitPages, later.lowPages, later.pages, later.postChecksum);
        maxTxid = later.maxTxid;
    }

    /** An empty batch that {@link #absorb absorbs} batches starting where {@code first} starts. */
    static CommitBatch startingLike(CommitBatch first) {
        return new CommitBatch(first.preChecksum, first.prePages);
    }

    boolean hasTransactions() {
        return minTxid > 0;
    }

    long minTxid() {
        return minTxid;
    }

    long maxTxid() {
        return maxTxid;
    }

    long postChecksum() {
        return postChecksum;
    }

    int commitPages() {
        return commitPages;
    }

    int pageSize() {
        return pageSize;
    }

    long pageBytes() {
        return pageBytes;
    }

    byte[] encode(SegmentKind kind, long scopeTag, long epoch) {
        return SegmentCodec.encode(new SegmentHeader(kind, scopeTag, epoch, pageSize, commitPages, lowPages,
                minTxid, maxTxid, preChecksum, postChecksum), pages);
    }

    /** The segment key, fixed when the batch is taken for upload. */
    void named(String segmentKey) {
        this.key = segmentKey;
    }

    String key() {
        return key;
    }
}
