package dev.cellgate.core.spi.js;

/**
 * Options of {@code storage.list()}; {@code null} means absent. {@code limit} of 0 means none.
 * {@code start} is inclusive, {@code startAfter} exclusive, {@code end} exclusive.
 */
public record KvListOptions(String start, String startAfter, String end, String prefix, boolean reverse, int limit) {
    public static KvListOptions all() {
        return new KvListOptions(null, null, null, null, false, 0);
    }
}
