package dev.cellgate.replicator.wal.restore;

import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.format.ObjectKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A listing of a cell's lineage keys, grouped by epoch. Keys the layout does not name are kept aside. */
public final class LineageListing {
    private final TreeMap<Long, EpochObjects> epochs = new TreeMap<>();
    private final List<String> unknown = new ArrayList<>();

    /** What one epoch holds. */
    public static final class EpochObjects {
        ObjectKey base;
        final List<ObjectKey> segments = new ArrayList<>();
        final TreeMap<Long, ObjectKey> manifests = new TreeMap<>();
        final List<ObjectKey> chunks = new ArrayList<>();

        public boolean pinned() {
            return base != null;
        }

        /** Segments, snapshot manifests and chunks: everything but the pin. */
        public int dataObjects() {
            return segments.size() + manifests.size() + chunks.size();
        }

        public List<ObjectKey> segments() {
            return segments;
        }

        public TreeMap<Long, ObjectKey> manifests() {
            return manifests;
        }

        public List<ObjectKey> all() {
            List<ObjectKey> all = new ArrayList<>(segments);
            if (base != null) {
                all.add(base);
            }
            all.addAll(manifests.values());
            all.addAll(chunks);
            return all;
        }
    }

    public static LineageListing of(LineageKeys keys, Collection<String> listed) {
        LineageListing l = new LineageListing();
        for (String k : listed) {
            ObjectKey o = keys.parse(k);
            if (o == null) {
                l.unknown.add(k);
                continue;
            }
            EpochObjects e = l.epochs.computeIfAbsent(o.epoch(), x -> new EpochObjects());
            switch (o.type()) {
                case BASE -> e.base = o;
                case L0, L1 -> e.segments.add(o);
                case MANIFEST -> e.manifests.put(o.minTxid(), o);
                case CHUNK -> e.chunks.add(o);
            }
        }
        return l;
    }

    /** The newest epoch below {@code below} that has a pin, or -1. */
    public long newestPinnedBelow(long below) {
        for (Map.Entry<Long, EpochObjects> e : epochs.headMap(below, false).descendingMap().entrySet()) {
            if (e.getValue().pinned()) {
                return e.getKey();
            }
        }
        return -1;
    }

    public EpochObjects epoch(long epoch) {
        return epochs.getOrDefault(epoch, new EpochObjects());
    }

    public java.util.NavigableMap<Long, EpochObjects> epochs() {
        return epochs;
    }

    public List<String> unknownKeys() {
        return unknown;
    }
}
