package dev.cellgate.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The bucket's and the network's misbehaviour in one seed. Rates are drawn per seed, so some seeds
 * are calm and others harsh. {@link #quiet} turns every fault off except latency: the phase in which
 * the fleet must settle.
 */
final class Faults {
    private final SplittableRandom rnd;
    final double throttleRate;
    final double requestLost;
    final double responseLost;
    final double readFails;
    final double crashAtAwait;
    final double spikeRate;
    final double forwardAnswerLost;
    private final List<long[]> throttleWindows = new ArrayList<>();
    boolean quiet;

    Faults(SplittableRandom rnd, long start, long faultPhaseMs) {
        this.rnd = rnd;
        this.throttleRate = 0.3 + rnd.nextDouble() * 0.6;
        this.requestLost = rnd.nextDouble() * 0.02;
        this.responseLost = rnd.nextDouble() * 0.04;
        this.readFails = rnd.nextDouble() * 0.02;
        this.crashAtAwait = rnd.nextDouble() * 0.004;
        this.spikeRate = rnd.nextDouble() * 0.05;
        this.forwardAnswerLost = rnd.nextDouble() * 0.05;
        int windows = rnd.nextInt(3);
        for (int i = 0; i < windows; i++) {
            long from = start + rnd.nextLong(faultPhaseMs);
            throttleWindows.add(new long[] {from, from + 500 + rnd.nextLong(4_000)});
        }
    }

    /** One way of the network plus the store's service time. */
    long latency() {
        if (!quiet && rnd.nextDouble() < spikeRate) {
            return 100 + rnd.nextLong(700);
        }
        return 1 + rnd.nextLong(15);
    }

    /** How long a client waits before calling a call lost (the ambiguous outcome). */
    long timeout() {
        return 500 + rnd.nextLong(1_000);
    }

    boolean throttled(long now) {
        if (quiet) {
            return false;
        }
        for (long[] w : throttleWindows) {
            if (now >= w[0] && now < w[1]) {
                return rnd.nextDouble() < throttleRate;
            }
        }
        return false;
    }

    boolean requestLost() {
        return !quiet && rnd.nextDouble() < requestLost;
    }

    boolean responseLost() {
        return !quiet && rnd.nextDouble() < responseLost;
    }

    /** A forwarded call ran, and its answer never reaches the node that sent it (a reset, a timeout). */
    boolean forwardAnswerLost() {
        return !quiet && rnd.nextDouble() < forwardAnswerLost;
    }

    boolean readFails() {
        return !quiet && rnd.nextDouble() < readFails;
    }

    /** The node crashes instead of receiving this answer: a crash at an await point. */
    boolean crashAtAwait() {
        return !quiet && rnd.nextDouble() < crashAtAwait;
    }
}
