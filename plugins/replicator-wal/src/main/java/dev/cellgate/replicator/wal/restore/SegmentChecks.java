package dev.cellgate.replicator.wal.restore;

import dev.cellgate.core.spi.replication.RestoreException;
import dev.cellgate.replicator.wal.format.ObjectKey;
import dev.cellgate.replicator.wal.format.Segment;
import dev.cellgate.replicator.wal.format.SegmentCodec;
import dev.cellgate.replicator.wal.format.SegmentFormatException;
import dev.cellgate.replicator.wal.format.SegmentHeader;
import dev.cellgate.replicator.wal.format.SegmentKind;

/** Decodes a downloaded segment and checks it is the object its key names, for this cell. */
final class SegmentChecks {
    private SegmentChecks() {
    }

    static Segment decodeSegment(String scope, ObjectKey key, byte[] bytes) {
        Segment s = decode(scope, key.key(), describe(key), bytes);
        SegmentHeader h = s.header();
        SegmentKind want = key.type() == ObjectKey.Type.L0 ? SegmentKind.L0 : SegmentKind.L1;
        if (h.kind() != want || h.epoch() != key.epoch() || h.minTxid() != key.minTxid() || h.maxTxid() != key.maxTxid()) {
            throw corrupt(scope, key.key(), describe(key), "its header says " + h.kind() + " e" + h.epoch() + " "
                    + h.describeRange() + ", not what its key names");
        }
        return s;
    }

    static Segment decodeChunk(String scope, String key, long epoch, long txid, int firstPage, int pages, int dbPages, byte[] bytes) {
        String what = "snapshot e" + epoch + "@" + txid + " pages " + firstPage + ".." + (firstPage + pages - 1);
        Segment s = decode(scope, key, what, bytes);
        SegmentHeader h = s.header();
        if (h.kind() != SegmentKind.SNAPSHOT_CHUNK || h.epoch() != epoch || h.minTxid() != txid
                || h.lowPages() != firstPage || s.pageCount() != pages || h.commitPages() != dbPages) {
            throw corrupt(scope, key, what, "its header does not match the manifest");
        }
        if (s.pagesChecksum() != h.postChecksum()) {
            throw corrupt(scope, key, what, "its pages do not match their checksum");
        }
        return s;
    }

    private static Segment decode(String scope, String key, String what, byte[] bytes) {
        Segment s;
        try {
            s = SegmentCodec.decode(bytes);
        } catch (SegmentFormatException e) {
            throw corrupt(scope, key, what, e.getMessage());
        }
        if (s.header().scopeTag() != SegmentCodec.scopeTag(scope)) {
            throw corrupt(scope, key, what, "it belongs to another cell");
        }
        return s;
    }

    static String describe(ObjectKey k) {
        return k.type().name().toLowerCase(java.util.Locale.ROOT) + " segment of e" + k.epoch() + " txids "
                + k.minTxid() + ".." + k.maxTxid();
    }

    static RestoreException corrupt(String scope, String key, String what, String why) {
        return new RestoreException("cell " + scope + ": " + what + " (" + key + ") is corrupt: " + why);
    }
}
