package dev.cellgate.gateway.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;

/**
 * The knobs of one {@link FaultProxy}, changeable while traffic flows: added latency, fault rules
 * (each a request filter, a probability and an action; the first rule whose draw hits wins), and a
 * cut-off switch that drops everything. Draws come from one seeded generator, so a scenario's mix
 * of faults is reproducible in kind and rate (the exact interleaving is the network's).
 */
public final class FaultPlan {

    /** What the proxy does with one request. */
    public enum Action {
        /** Relay to the bucket and back. */
        FORWARD,
        /** Answer 503 SlowDown without forwarding: the server did no work. */
        THROTTLE_503,
        /** Answer 429 Too Many Requests without forwarding. */
        THROTTLE_429,
        /** Answer 500 InternalError without forwarding: a server error, nothing applied (the node cannot know). */
        SERVER_ERROR_500,
        /** Forward (the write is applied), then answer 500 InternalError: the server's error after doing the work. */
        SERVER_ERROR_500_AFTER_APPLYING,
        /** Reset the connection without forwarding: nothing happened, but the node cannot know. */
        RESET,
        /** Forward (the write is applied), then reset instead of answering: an ambiguous outcome. */
        DROP_RESPONSE,
        /** Forward, then never answer (the node's request times out): an ambiguous outcome. */
        DROP_RESPONSE_SILENT,
        /** Neither forward nor answer while the cut-off lasts, then reset: the bucket is unreachable. */
        BLACKHOLE
    }

    /** A fault: requests that {@code applies} to get {@code action} with {@code probability}. */
    public record Rule(String name, Predicate<S3Call> applies, double probability, Action action) {
        public Rule {
            if (probability < 0 || probability > 1) {
                throw new IllegalArgumentException("rule " + name + ": probability " + probability + " is not in [0, 1]");
            }
        }
    }

    /** The verdict for one request: wait {@code delayMs}, then {@code action}; {@code rule} names the cause. */
    public record Decision(long delayMs, Action action, String rule) {
    }

    private final Random random;
    private volatile List<Rule> rules = List.of();
    private volatile long minDelayMs;
    private volatile long maxDelayMs;
    private volatile Predicate<S3Call> delayed = c -> true;
    private volatile boolean cutOff;

    public FaultPlan(long seed) {
        this.random = new Random(seed);
    }

    /** Adds a uniform delay in [min, max] ms before requests that {@code applies} to are handled. */
    public FaultPlan latency(long minMs, long maxMs, Predicate<S3Call> applies) {
        if (minMs < 0 || maxMs < minMs) {
            throw new IllegalArgumentException("latency [" + minMs + ", " + maxMs + "] ms is not a range");
        }
        this.delayed = applies;
        this.minDelayMs = minMs;
        this.maxDelayMs = maxMs;
        return this;
    }

    public FaultPlan latency(long minMs, long maxMs) {
        return latency(minMs, maxMs, c -> true);
    }

    public synchronized FaultPlan add(Rule rule) {
        List<Rule> next = new ArrayList<>(rules);
        next.add(rule);
        rules = List.copyOf(next);
        return this;
    }

    public FaultPlan add(String name, Predicate<S3Call> applies, double probability, Action action) {
        return add(new Rule(name, applies, probability, action));
    }

    /** Removes every rule and the latency (the cut-off has its own switch). */
    public synchronized FaultPlan clear() {
        rules = List.of();
        minDelayMs = 0;
        maxDelayMs = 0;
        return this;
    }

    /** While on, every request is dropped ({@link Action#BLACKHOLE}). */
    public FaultPlan cutOff(boolean on) {
        cutOff = on;
        return this;
    }

    public boolean cutOff() {
        return cutOff;
    }

    Decision decide(S3Call call) {
        if (cutOff) {
            return new Decision(0, Action.BLACKHOLE, "cut-off");
        }
        long delay = 0;
        Action action = Action.FORWARD;
        String cause = "none";
        synchronized (random) {
            if (maxDelayMs > 0 && delayed.test(call)) {
                delay = minDelayMs + (maxDelayMs == minDelayMs ? 0 : random.nextLong(maxDelayMs - minDelayMs + 1));
            }
            for (Rule r : rules) {
                if (r.applies().test(call) && random.nextDouble() < r.probability()) {
                    action = r.action();
                    cause = r.name();
                    break;
                }
            }
        }
        return new Decision(delay, action, cause);
    }
}
