package dev.cellgate.deploy.cells;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.MalformedRecordException;
import dev.cellgate.core.records.OwnershipRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.ObjectInfo;
import dev.cellgate.core.spi.bucket.StoredObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Reads every cell of a bucket: the keys under {@code cells/} (SPEC §4), grouped by scope; each
 * cell's {@code own.json} decoded by the node's own {@link OwnershipRecord}; the size and last
 * write of the rest (the replicator's data, whatever its layout) from {@link BucketStore#info}.
 */
final class CellListing {
    private static final String CELLS = "cells/";
    private static final int PAGE = 1000;
    /** Objects asked about at once: a large cell must not open thousands of requests. */
    private static final int IN_FLIGHT = 32;

    private CellListing() {
    }

    static List<CellSummary> read(BucketStore store) {
        Map<String, List<String>> byScope = new TreeMap<>();
        String cursor = null;
        do {
            ListPage page = store.list(CELLS, cursor, PAGE).join();
            for (String key : page.keys()) {
                int slash = key.indexOf('/', CELLS.length());
                if (slash > CELLS.length()) {
                    byScope.computeIfAbsent(key.substring(CELLS.length(), slash), s -> new ArrayList<>()).add(key);
                }
            }
            cursor = page.nextCursor();
        } while (cursor != null);
        List<CellSummary> out = new ArrayList<>();
        byScope.forEach((scope, keys) -> out.add(summary(store, scope, keys)));
        return out;
    }

    private static CellSummary summary(BucketStore store, String scope, List<String> keys) {
        String ownKey = Keys.ownership(scope);
        String owner = null;
        String session = null;
        long epoch = 0;
        String error = null;
        if (keys.contains(ownKey)) {
            Optional<StoredObject> own = store.get(ownKey).join();
            if (own.isEmpty()) {
                error = "own.json disappeared while listing";
            } else {
                try {
                    OwnershipRecord r = OwnershipRecord.decode(own.get().bytes());
                    owner = r.node();
                    session = r.session();
                    epoch = r.epoch();
                } catch (MalformedRecordException e) {
                    error = e.getMessage();
                }
            }
        } else {
            error = "no own.json: data without an ownership record";
        }
        List<String> data = keys.stream().filter(k -> !k.equals(ownKey)).toList();
        long size = 0;
        long last = ObjectInfo.UNKNOWN_TIME;
        int objects = 0;
        for (int i = 0; i < data.size(); i += IN_FLIGHT) {
            List<CompletableFuture<Optional<ObjectInfo>>> batch = data.subList(i, Math.min(data.size(), i + IN_FLIGHT)).stream()
                    .map(store::info).toList();
            for (CompletableFuture<Optional<ObjectInfo>> f : batch) {
                Optional<ObjectInfo> info = f.join(); // absent: deleted since the listing (compaction, GC)
                if (info.isPresent()) {
                    objects++;
                    size += info.get().size();
                    if (info.get().timeKnown()) {
                        last = Math.max(last, info.get().lastModifiedMs());
                    }
                }
            }
        }
        return new CellSummary(scope, owner, session, epoch, size, objects, last, error);
    }
}
