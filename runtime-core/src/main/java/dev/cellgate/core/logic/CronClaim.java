package dev.cellgate.core.logic;

import java.util.OptionalLong;

/**
 * Which occurrence of a cron a node should try to claim (SPEC §17): the latest occurrence at or
 * before now, if it is newer than the fleet's claim record and not older than the moment the
 * deployment carrying the trigger became current. Claiming only the latest is what makes "at
 * most one catch-up after an outage" hold: the missed occurrences before it are skipped, as
 * Cloudflare skips them. A record newer than every due occurrence (a node whose clock runs ahead
 * claimed it) is respected: an occurrence is never run twice, nor an older one after a newer.
 */
public final class CronClaim {
    private CronClaim() {
    }

    /**
     * @param lastClaimedMs the occurrence the claim record names, empty when there is none
     * @param activeSinceMs when the deployment with this trigger became current (deploy/current.json ms)
     */
    public static OptionalLong toClaim(CronSchedule schedule, OptionalLong lastClaimedMs, long nowMs, long activeSinceMs) {
        OptionalLong latest = schedule.latestAtOrBefore(nowMs);
        if (latest.isEmpty() || latest.getAsLong() < activeSinceMs) {
            return OptionalLong.empty();
        }
        if (lastClaimedMs.isPresent() && latest.getAsLong() <= lastClaimedMs.getAsLong()) {
            return OptionalLong.empty();
        }
        return latest;
    }
}
