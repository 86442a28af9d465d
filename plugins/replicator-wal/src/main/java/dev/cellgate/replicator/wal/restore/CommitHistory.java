package dev.cellgate.replicator.wal.restore;

import dev.cellgate.core.logic.PitrHistory;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.format.ObjectKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** A cell's commit groups as point-in-time recovery sees them: the segments whose keys name their time. */
public final class CommitHistory {
    private CommitHistory() {
    }

    public static List<PitrHistory.Commit> of(LineageKeys keys, Collection<String> listed) {
        List<PitrHistory.Commit> out = new ArrayList<>();
        for (String k : listed) {
            ObjectKey o = keys.parse(k);
            if (o != null) {
                add(o, out);
            }
        }
        return out;
    }

    public static List<PitrHistory.Commit> of(LineageListing listing) {
        List<PitrHistory.Commit> out = new ArrayList<>();
        listing.epochs().values().forEach(e -> e.segments().forEach(o -> add(o, out)));
        return out;
    }

    // A segment written before keys named their time is no bookmark: it restores only as part of a lineage.
    private static void add(ObjectKey o, List<PitrHistory.Commit> out) {
        if (o.isSegment() && o.timed()) {
            out.add(new PitrHistory.Commit(o.epoch(), o.minTxid(), o.maxTxid(), o.timeMs()));
        }
    }
}
