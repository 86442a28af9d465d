package dev.cellgate.gateway.faults;

/**
 * How fast a node may hit a bucket that throttles everything, derived from the store's retry
 * policy. plugins/store-s3 (S3StoreConfig.RETRIES, a logic/Backoff; the SDK's own retries off): one logical operation
 * makes at most 6 requests; before attempt k (2..6) it waits a delay drawn uniformly from
 * [0, min(100 ms * 2^(k-2), 5 s)] (full jitter). The policy is restated here on purpose: if the
 * plugin's policy changes, this bound must be changed consciously, not follow along.
 *
 * <p>An operation that exhausts its attempts therefore spends on average
 * Σ ceiling/2 = (100+200+400+800+1600)/2 = 1550 ms waiting (plus round trips, which only slow it
 * down) for its 6 requests. A "chain" is anything that runs bucket operations one after another
 * (a closed-loop client's request, a background loop, a cell's replication): each sustains at
 * most 6 / 1.55 s ≈ 3.9 requests/s on average under total throttling, and at most
 * {@code maxAttempts} in a second but for unlucky draws. A retry storm (no backoff, or retries
 * multiplied by layers) is orders of magnitude above that: a loopback round trip is ~1 ms.
 */
public record RetryBudget(int maxAttempts, long baseMs, long capMs) {
    public static final RetryBudget STORE_S3 = new RetryBudget(6, 100, 5000);

    /** The ceiling of the delay before attempt {@code k} (2..maxAttempts). */
    public long ceilingMs(int k) {
        long ms = baseMs << Math.min(k - 2, 30);
        return Math.min(ms, capMs);
    }

    /** The mean total backoff of an operation that uses all its attempts. */
    public double meanExhaustedMs() {
        double sum = 0;
        for (int k = 2; k <= maxAttempts; k++) {
            sum += ceilingMs(k) / 2.0;
        }
        return sum;
    }

    /** The most {@code chains} throttled chains sustain on average, requests per second. */
    public double sustainedRate(int chains) {
        return chains * maxAttempts * 1000.0 / meanExhaustedMs();
    }

    /** The verdict on the per-second request counts of a fully throttled window. */
    public record Verdict(boolean ok, double meanRate, long peak, double meanBound, long peakBound, String detail) {
    }

    /**
     * Mean over the window within {@code slack} × {@link #sustainedRate}, and no second above
     * chains × maxAttempts × slack (a chain's whole budget in one second).
     */
    public Verdict judge(long[] perSecond, int chains, double slack) {
        long total = 0;
        long peak = 0;
        for (long c : perSecond) {
            total += c;
            peak = Math.max(peak, c);
        }
        double mean = perSecond.length == 0 ? 0 : (double) total / perSecond.length;
        double meanBound = sustainedRate(chains) * slack;
        long peakBound = (long) Math.ceil(chains * maxAttempts * slack);
        boolean ok = perSecond.length > 0 && mean <= meanBound && peak <= peakBound;
        String detail = String.format(java.util.Locale.ROOT,
                "%d s, %d chains: mean %.1f req/s (bound %.1f), peak %d req/s (bound %d)",
                perSecond.length, chains, mean, meanBound, peak, peakBound);
        return new Verdict(ok, mean, peak, meanBound, peakBound, detail);
    }
}
