package dev.cellgate.core.logic;

/**
 * A Worker's own CPU limit per event, Wrangler's {@code limits.cpu_ms}: what values are valid and
 * which budget an event gets. As on Cloudflare, the Worker's value is its limit, below or above the
 * node's {@code CELLD_CPU_MS}; the node setting is only the default for Workers that set none.
 */
public final class WorkerCpuLimit {
    /** Cloudflare's maximum (5 minutes of CPU time); its default is 30000, as CELLD_CPU_MS's. */
    public static final long MAX_MS = 300_000;
    /** How the Worker's limit is named in errors: the config key that set it. */
    public static final String SETTING = "limits.cpu_ms";

    private WorkerCpuLimit() {
    }

    /** Why {@code value} (as read from JSON or TOML) is not a valid {@code limits.cpu_ms}; null when it is. */
    public static String problem(Object value) {
        boolean whole = value instanceof Integer || value instanceof Long;
        if (whole && ((Number) value).longValue() >= 1 && ((Number) value).longValue() <= MAX_MS) {
            return null;
        }
        String got = value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
        return SETTING + " must be a whole number of milliseconds from 1 to " + MAX_MS + " (got " + got + "); "
                + MAX_MS + " (5 minutes) is Cloudflare's maximum";
    }

    /** What a wait for another node's answer allows beyond the event's CPU budget (its I/O, queueing). */
    public static final long ANSWER_SLACK_MS = 30_000;

    /** The CPU budget of each of the Worker's events: its own limit when it sets one, else the node's. */
    public static long effectiveMs(long nodeDefaultMs, Long workerMs) {
        return workerMs != null ? workerMs : nodeDefaultMs;
    }

    /**
     * How long a node waits for a peer to answer an event it forwarded (a Durable Object's fetch,
     * RPC call or alarm) before giving up: the larger of the deployment's budget and the node's,
     * plus {@link #ANSWER_SLACK_MS}. Never shorter than the node default's wait (a Worker with a
     * small CPU limit may still wait long on I/O); longer only for a Worker that set a larger limit,
     * so the others keep the short wait that notices a stopped peer soon.
     */
    public static long peerAnswerTimeoutMs(long nodeDefaultMs, Long workerMs) {
        return Math.max(nodeDefaultMs, effectiveMs(nodeDefaultMs, workerMs)) + ANSWER_SLACK_MS;
    }

    /**
     * The longest CPU budget any event on this node can have, whatever is deployed later: what a
     * thread-blocked warning or a peer's wait must allow for before it calls a turn stuck.
     */
    public static long longestEventMs(long nodeDefaultMs) {
        return Math.max(nodeDefaultMs, MAX_MS);
    }

    /**
     * The longest any event may keep its caller waiting, whatever is deployed later: the longest
     * budget plus {@link #ANSWER_SLACK_MS}. A connection that is silent this long with a request in
     * flight may be closed; before that it must not be.
     */
    public static long longestAnswerMs(long nodeDefaultMs) {
        return peerAnswerTimeoutMs(nodeDefaultMs, longestEventMs(nodeDefaultMs));
    }
}
