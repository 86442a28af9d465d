package dev.cellgate.gateway.it;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;

/**
 * What a node did after it lost its lease (issue 29): a LAPSED lease (no renewal landed in time)
 * degrades it and it rejoins with a new session, still running; a REPLACED one (deleted, tombstoned,
 * another session) exits 3. Both print {@code SELF-FENCE:}. {@link #await} waits for the end of the
 * story and {@link #asExpected} says whether the two match.
 *
 * @param kind   the {@code lease.fenced} kind ({@code lapsed}/{@code replaced}), or null if it never fenced
 * @param exit   the exit code, or null while it runs
 * @param rejoined whether it logged {@code node.rejoined}
 */
record FenceOutcome(String kind, Integer exit, boolean rejoined, boolean selfFenceLine) {

    /** Waits until {@code n} fenced and then either exited or rejoined, at most {@code within}. */
    static FenceOutcome await(NodeProcess n, Duration within) throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < end) {
            FenceOutcome now = of(n);
            if (now.kind != null && (now.exit != null || now.rejoined)) {
                return now;
            }
            if (now.exit != null) {
                return now; // exited without a fence line: the outcome says so
            }
            Thread.sleep(200);
        }
        return of(n);
    }

    static FenceOutcome of(NodeProcess n) throws InterruptedException {
        List<JsonObject> fenced = n.events("lease.fenced");
        String kind = fenced.isEmpty() ? null : fenced.getLast().getString("kind");
        Integer exit = n.alive() ? null : n.waitForExit(Duration.ofSeconds(5));
        // A rejoin counts only after the last fence: an earlier lapse (a slow bucket on a loaded box) rejoined already.
        List<String> lines = n.lines();
        int lastFence = -1;
        boolean rejoined = false;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("\"event\":\"lease.fenced\"")) {
                lastFence = i;
                rejoined = false;
            } else if (lastFence >= 0 && lines.get(i).contains("\"event\":\"node.rejoined\"")) {
                rejoined = true;
            }
        }
        boolean line = n.lines().stream().anyMatch(l -> l.startsWith("SELF-FENCE:"));
        return new FenceOutcome(kind, exit, rejoined, line);
    }

    /** Lapsed: still running and rejoined; replaced: exit 3. Either way a SELF-FENCE line. */
    boolean asExpected() {
        if (!selfFenceLine || kind == null) {
            return false;
        }
        return switch (kind) {
            case "lapsed" -> exit == null && rejoined;
            case "replaced" -> exit != null && exit == 3;
            default -> false;
        };
    }

    @Override
    public String toString() {
        return kind == null ? "never fenced" + (exit == null ? "" : ", exit " + exit)
                : kind + (exit == null ? (rejoined ? ", degraded and rejoined (no exit)" : ", still running, NOT rejoined") : ", exit " + exit);
    }
}
