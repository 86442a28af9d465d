package dev.cellgate.replicator.wal.sqlite;

import java.util.SortedMap;

/**
 * One committed transaction read from the WAL: the last image of each page it wrote and the
 * database size in pages after it (the commit frame's size field).
 */
public record WalTxn(int pageSize, int commitPages, SortedMap<Integer, byte[]> pages) {

    public long bytes() {
        return (long) pages.size() * pageSize;
    }
}
