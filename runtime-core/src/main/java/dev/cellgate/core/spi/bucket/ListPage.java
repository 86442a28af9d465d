package dev.cellgate.core.spi.bucket;

import java.util.List;

/** One page of a listing; {@code nextCursor} is {@code null} on the last page. */
public record ListPage(List<String> keys, String nextCursor) {
    public ListPage {
        keys = List.copyOf(keys);
    }

    public boolean last() {
        return nextCursor == null;
    }
}
