package dev.cellgate.deploy.history;

import dev.cellgate.core.deploy.DeploymentIds;
import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.fleet.StoredRecord;
import dev.cellgate.core.records.CurrentDeployment;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.ExitCodes;
import java.util.Optional;
import java.util.concurrent.CompletionException;

/**
 * Moves {@code deploy/current.json} back to an earlier deployment by compare-and-swap:
 * to {@code current.previous} when no id is given, else to the named one. The target's manifest,
 * every blob it names (modules and plugin jars, digests checked) and the secret versions it runs
 * with must be readable first: a rollback must never point the fleet at something nodes cannot load. The new record's
 * {@code previous} is the deployment rolled back from, so a second {@code rollback} undoes the first.
 *
 * <p>If another writer moves {@code current} in between: with an explicit id the rollback
 * re-reads and tries again (the target does not depend on what was current); without one it
 * stops with a conflict (exit 4), since "the previous one" meant the previous of what it read.
 */
public final class Rollback {
    static final int MAX_ATTEMPTS = 5;

    private final DeploymentStore store;

    public Rollback(DeploymentStore store) {
        this.store = store;
    }

    /** @param from the deployment that was current; {@code changed} false when the target already was current */
    public record Result(String deployment, String from, boolean changed) {
    }

    public Result run(String requested) {
        if (requested != null && !DeploymentIds.isValid(requested)) {
            throw CommandException.usage("'" + requested + "' is not a deployment id (like d-20260101T120000Z-1a2b3c; see deploy-tool list)");
        }
        for (int attempt = 1; ; attempt++) {
            Optional<StoredRecord<CurrentDeployment>> cur = read();
            if (cur.isEmpty()) {
                throw CommandException.refused("nothing is deployed yet (no deploy/current.json): nothing to roll back");
            }
            CurrentDeployment c = cur.get().value();
            String target = requested != null ? requested : c.previous();
            if (target == null) {
                throw CommandException.refused("current deployment " + c.deployment() + " records no previous one; "
                        + "name the deployment to go back to: deploy-tool rollback ID (see deploy-tool list)");
            }
            if (target.equals(c.deployment())) {
                return new Result(target, c.deployment(), false);
            }
            verify(target);
            WriteOutcome w = store.moveCurrent(cur, target, System.currentTimeMillis()).join();
            if (w.written()) {
                return new Result(target, c.deployment(), true);
            }
            if (w instanceof WriteOutcome.Ambiguous) {
                Optional<StoredRecord<CurrentDeployment>> after = read();
                if (after.isPresent() && after.get().value().deployment().equals(target)
                        && c.deployment().equals(after.get().value().previous())) {
                    return new Result(target, c.deployment(), true);
                }
            }
            if (requested == null) {
                throw new CommandException(ExitCodes.CONFLICT, "deploy/current.json moved while rolling back from " + c.deployment()
                        + " (a push or another rollback?); nothing changed here. Check deploy-tool list and run rollback again");
            }
            if (attempt >= MAX_ATTEMPTS) {
                throw new CommandException(ExitCodes.CONFLICT, "deploy/current.json kept moving; " + target
                        + " is not current after " + MAX_ATTEMPTS + " attempts");
            }
        }
    }

    private Optional<StoredRecord<CurrentDeployment>> read() {
        try {
            return store.current().join();
        } catch (RuntimeException e) {
            throw CommandException.failed("cannot read deploy/current.json: " + root(e), e);
        }
    }

    /** Every byte the target needs is in the bucket and matches its digest. */
    private void verify(String id) {
        Manifest m;
        try {
            m = store.manifest(id).join();
        } catch (RuntimeException e) {
            throw CommandException.refused("cannot roll back to " + id + ": " + root(e));
        }
        for (Manifest.BlobRef ref : m.modules()) {
            blob(id, ref);
        }
        for (Manifest.BlobRef ref : m.plugins()) {
            blob(id, ref);
        }
        // its secrets run with the values they had then (as a Cloudflare version's do): each version must still be stored
        java.util.Set<String> stored;
        try {
            stored = store.secretValues(m).join().keySet();
        } catch (RuntimeException e) {
            throw CommandException.refused("cannot roll back to " + id + ": " + root(e));
        }
        java.util.List<String> gone = m.secretNames().stream().filter(n -> !stored.contains(n)).toList();
        if (!gone.isEmpty()) {
            throw CommandException.refused("cannot roll back to " + id + ": it runs with secret(s) " + String.join(", ", gone)
                    + " whose value was deleted since (deploy-tool secret delete); nodes could not load it");
        }
    }

    private void blob(String id, Manifest.BlobRef ref) {
        try {
            store.blob(ref).join();
        } catch (RuntimeException e) {
            throw CommandException.refused("cannot roll back to " + id + ": " + root(e));
        }
    }

    static String root(Throwable e) {
        Throwable c = e;
        while (c instanceof CompletionException && c.getCause() != null) {
            c = c.getCause();
        }
        return c.getMessage() == null ? c.toString() : c.getMessage();
    }
}
