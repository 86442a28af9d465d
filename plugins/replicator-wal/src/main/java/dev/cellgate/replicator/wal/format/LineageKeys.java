package dev.cellgate.replicator.wal.format;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a cell's replicated data lives in the bucket. Every number in a key is 16 lowercase hex
 * digits, so a plain ascending listing sorts epochs, transaction ids and pages numerically.
 *
 * <pre>
 * cells/&lt;scope&gt;/wal/e&lt;epoch&gt;/base.json                              the pin: where epoch starts
 * cells/&lt;scope&gt;/wal/e&lt;epoch&gt;/l0/&lt;minTxid&gt;-&lt;maxTxid&gt;-&lt;ms&gt;.seg         one upload (group commit), durable at ms
 * cells/&lt;scope&gt;/wal/e&lt;epoch&gt;/l1/&lt;minTxid&gt;-&lt;maxTxid&gt;-&lt;ms&gt;.seg         compaction of consecutive l0s (ms: the last one's)
 * cells/&lt;scope&gt;/wal/e&lt;epoch&gt;/snap/&lt;txid&gt;/chunk-&lt;firstPage&gt;.seg   snapshot pages
 * cells/&lt;scope&gt;/wal/e&lt;epoch&gt;/snap/&lt;txid&gt;/manifest.json           written last: the snapshot is complete
 * </pre>
 * Segment keys name the time their commits became durable (milliseconds since the epoch, hex) so
 * that point-in-time recovery finds the state at a time, and retention what to keep, from a listing
 * alone. Keys written before that ({@code <minTxid>-<maxTxid>.seg}) are still read: their segments
 * restore as before, they only name no time (no bookmark points into them).
 */
public final class LineageKeys {
    private static final Pattern KEY = Pattern.compile(
            "e([0-9a-f]{16})/(?:(base\\.json)"
                    + "|(l0|l1)/([0-9a-f]{16})-([0-9a-f]{16})(?:-([0-9a-f]{16}))?\\.seg"
                    + "|snap/([0-9a-f]{16})/(?:(manifest\\.json)|chunk-([0-9a-f]{16})\\.seg))");
    /** What {@link ObjectKey#timeMs()} is for a key written before segment keys named their time. */
    public static final long NO_TIME = -1;

    private final String scope;
    private final String root;

    public LineageKeys(String scope) {
        if (scope == null || scope.isEmpty() || scope.length() > 300 || scope.contains("/")
                || !scope.chars().allMatch(ch -> ch > 32 && ch < 127)) {
            throw new IllegalArgumentException("invalid cell scope '" + scope
                    + "': must be 1-300 printable ASCII characters without '/' or spaces");
        }
        this.scope = scope;
        this.root = "cells/" + scope + "/wal/";
    }

    public String scope() {
        return scope;
    }

    /** The prefix holding every epoch of this cell. */
    public String root() {
        return root;
    }

    public String epochPrefix(long epoch) {
        return root + "e" + hex(epoch) + "/";
    }

    public String base(long epoch) {
        return epochPrefix(epoch) + "base.json";
    }

    /** The key of a segment whose commits became durable at {@code timeMs}. */
    public String segment(long epoch, SegmentKind kind, long minTxid, long maxTxid, long timeMs) {
        if (timeMs < 0) {
            throw new IllegalArgumentException("segment time must not be negative, got " + timeMs);
        }
        return legacySegment(epoch, kind, minTxid, maxTxid).replace(".seg", "-" + hex(timeMs) + ".seg");
    }

    /** A segment key as written before keys named their time: still read (tests build old buckets with it). */
    public String legacySegment(long epoch, SegmentKind kind, long minTxid, long maxTxid) {
        if (kind == SegmentKind.SNAPSHOT_CHUNK) {
            throw new IllegalArgumentException("snapshot chunks have their own key");
        }
        return epochPrefix(epoch) + kind.dir() + "/" + hex(minTxid) + "-" + hex(maxTxid) + ".seg";
    }

    public String snapshotManifest(long epoch, long txid) {
        return epochPrefix(epoch) + "snap/" + hex(txid) + "/manifest.json";
    }

    public String snapshotChunk(long epoch, long txid, int firstPage) {
        return epochPrefix(epoch) + "snap/" + hex(txid) + "/chunk-" + hex(firstPage) + ".seg";
    }

    /** Parses a key of this cell, or returns {@code null} for a key this layout does not name. */
    public ObjectKey parse(String key) {
        if (!key.startsWith(root)) {
            return null;
        }
        Matcher m = KEY.matcher(key.substring(root.length()));
        if (!m.matches()) {
            return null;
        }
        long epoch = unhex(m.group(1));
        if (m.group(2) != null) {
            return new ObjectKey(key, epoch, ObjectKey.Type.BASE, 0, 0, 0, NO_TIME);
        }
        if (m.group(3) != null) {
            ObjectKey.Type t = m.group(3).equals("l0") ? ObjectKey.Type.L0 : ObjectKey.Type.L1;
            long min = unhex(m.group(4));
            long max = unhex(m.group(5));
            if (min < 1 || max < min) {
                return null;
            }
            long time = m.group(6) == null ? NO_TIME : unhex(m.group(6));
            if (m.group(6) != null && time < 0) {
                return null; // no clock reads beyond 2^63 ms: not a key we wrote
            }
            return new ObjectKey(key, epoch, t, min, max, 0, time);
        }
        long txid = unhex(m.group(7));
        if (m.group(8) != null) {
            return new ObjectKey(key, epoch, ObjectKey.Type.MANIFEST, txid, txid, 0, NO_TIME);
        }
        return new ObjectKey(key, epoch, ObjectKey.Type.CHUNK, txid, txid, unhex(m.group(9)), NO_TIME);
    }

    public static String hex(long v) {
        return String.format(Locale.ROOT, "%016x", v);
    }

    private static long unhex(String s) {
        return Long.parseUnsignedLong(s, 16);
    }
}
