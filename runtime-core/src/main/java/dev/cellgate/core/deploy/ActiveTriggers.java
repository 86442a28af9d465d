package dev.cellgate.core.deploy;

import java.util.List;

/**
 * The cron triggers of the deployment a node runs, with what claiming them needs: the Worker's
 * name (claim records are per Worker) and when this deployment became current
 * ({@code deploy/current.json} {@code ms}): an occurrence before that belongs to the code before.
 */
public record ActiveTriggers(String deploymentId, String worker, List<String> crons, long sinceMs) {
    public ActiveTriggers {
        crons = List.copyOf(crons);
    }
}
