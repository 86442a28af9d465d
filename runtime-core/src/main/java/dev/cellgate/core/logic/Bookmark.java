package dev.cellgate.core.logic;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A point in a cell's history, as handed to JavaScript ({@code storage.getCurrentBookmark()}) and
 * operators: the database after transaction {@code txid} of the lineage pinned at {@code epoch},
 * stamped with the time it names. Encoded as three fixed-width hex fields, time first, so that
 * bookmarks sort by time as plain strings (Cloudflare's promise: opaque, lexicographically ordered).
 * Epoch 0 and txid 0 is the empty database (a cell before its first write).
 *
 * @param timeMs when the database was in this state (the commit's upload time, or when it was asked)
 * @param epoch  the pinned epoch whose lineage reaches the point
 * @param txid   the last transaction the state includes
 */
public record Bookmark(long timeMs, long epoch, long txid) {
    private static final Pattern SHAPE = Pattern.compile("([0-9a-f]{16})-([0-9a-f]{16})-([0-9a-f]{16})");

    public Bookmark {
        if (timeMs < 0 || epoch < 0 || txid < 0) {
            throw new IllegalArgumentException("bookmark fields must not be negative: " + timeMs + "/" + epoch + "/" + txid);
        }
        if ((epoch == 0) != (txid == 0)) {
            throw new IllegalArgumentException("bookmark of epoch " + epoch + " at txid " + txid
                    + ": only the empty database has epoch 0, and it has txid 0");
        }
    }

    /** The state of a cell that has no data yet. */
    public static Bookmark empty(long timeMs) {
        return new Bookmark(timeMs, 0, 0);
    }

    public boolean isEmpty() {
        return epoch == 0;
    }

    public String encode() {
        return String.format(Locale.ROOT, "%016x-%016x-%016x", timeMs, epoch, txid);
    }

    /** Parses what {@link #encode()} wrote; anything else is refused with the reason. */
    public static Bookmark parse(String s) {
        if (s == null) {
            throw new IllegalArgumentException("invalid bookmark: null (expected a string from getCurrentBookmark() or getBookmarkForTime())");
        }
        Matcher m = SHAPE.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("invalid bookmark '" + clip(s)
                    + "': expected 3 groups of 16 lowercase hex digits, as getCurrentBookmark() and getBookmarkForTime() return");
        }
        try {
            return new Bookmark(Long.parseLong(m.group(1), 16), Long.parseLong(m.group(2), 16), Long.parseLong(m.group(3), 16));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid bookmark '" + s + "': a field is out of range", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid bookmark '" + s + "': " + e.getMessage(), e);
        }
    }

    private static String clip(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "…";
    }

    @Override
    public String toString() {
        return encode();
    }
}
