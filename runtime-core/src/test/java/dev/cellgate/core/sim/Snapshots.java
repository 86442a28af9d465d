package dev.cellgate.core.sim;

import dev.cellgate.core.logic.Keys;
import java.util.List;
import java.util.Optional;

/**
 * Where the simulated replicator keeps a cell's state: {@code cells/<scope>/e<epoch>/s<seq>}, each
 * snapshot holding the whole (cumulative) state. A restore for epoch N reads the newest epoch below
 * N that has data, and in it the highest sequence number.
 */
final class Snapshots {
    private Snapshots() {
    }

    static String key(String scope, long epoch, long seq) {
        return Keys.cell(scope) + "e" + epoch + "/s" + seq;
    }

    /** The epoch of a snapshot key of {@code scope}, or -1. */
    static long epochOf(String scope, String key) {
        String prefix = Keys.cell(scope) + "e";
        int slash = key.indexOf('/', prefix.length());
        if (!key.startsWith(prefix) || slash < 0) {
            return -1;
        }
        return Long.parseLong(key.substring(prefix.length(), slash));
    }

    static long seqOf(String key) {
        return Long.parseLong(key.substring(key.lastIndexOf("/s") + 2));
    }

    /** The snapshot a restore below {@code belowEpoch} reads, from a listing of {@code cells/<scope>/}. */
    static Optional<String> pick(String scope, List<String> keys, long belowEpoch) {
        String best = null;
        long bestEpoch = -1;
        long bestSeq = -1;
        for (String k : keys) {
            long e = epochOf(scope, k);
            if (e < 0 || e >= belowEpoch) {
                continue;
            }
            long s = seqOf(k);
            if (e > bestEpoch || (e == bestEpoch && s > bestSeq)) {
                best = k;
                bestEpoch = e;
                bestSeq = s;
            }
        }
        return Optional.ofNullable(best);
    }
}
