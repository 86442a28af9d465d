package dev.cellgate.core.deploy;

import dev.cellgate.core.async.Retrying;
import dev.cellgate.core.deploy.bindings.Binding;
import dev.cellgate.core.deploy.bindings.SecretTextBinding;
import dev.cellgate.core.logic.Backoff;
import dev.cellgate.core.logic.SecretNames;
import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.time.Scheduler;
import dev.cellgate.core.time.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * How a secret change reaches running Workers without a push: a new deployment that is the
 * current one (same code, same other bindings) with the Worker's secrets in force
 * ({@link SecretStore#versions}), made current by compare-and-swap. Every node's
 * {@link DeploymentWatcher} then switches to it as it does after a push, reading the values it
 * names. This is Cloudflare's model too: a secret put creates a new version of the Worker at once.
 *
 * <p>Nothing is published when no deployment is current, when the current one runs another Worker
 * (the change waits for the next push of this one, which carries every secret in force), or when
 * the current deployment already names exactly these versions. A lost race re-reads current and
 * derives the new deployment again from whatever won, so two concurrent secret changes both end up
 * in the deployment that is current last, each new try after a short growing delay. Blocking
 * (the CLI and tests call it).
 */
public final class SecretRelease {
    static final int MAX_ATTEMPTS = 8;
    private static final Backoff BACKOFF = new Backoff(20, 640, MAX_ATTEMPTS);

    private final DeploymentStore deployments;
    private final SecretStore secrets;
    private final Ticker clock;

    public SecretRelease(BucketStore bucket, Ticker clock) {
        this.deployments = new DeploymentStore(bucket);
        this.secrets = new SecretStore(bucket);
        this.clock = clock;
    }

    /**
     * @param deployment the deployment now current with these secrets (null when none is current)
     * @param published  whether this call made it
     * @param why        when nothing was published: why, for the user
     */
    public record Outcome(String deployment, String previous, boolean published, String why) {
    }

    /** A secret would share its name with another binding of the current deployment. */
    public static final class ClashException extends IllegalStateException {
        public ClashException(String message) {
            super(message);
        }
    }

    /**
     * Publishes the current deployment of {@code worker} again with its secrets in force, leaving out
     * {@code dropping} (a delete in progress: its values are removed after this).
     *
     * @throws ClashException when a secret in force has the name of another binding of the current deployment
     * @throws IllegalStateException when current kept moving, or the bucket failed
     */
    public Outcome publish(String worker, Set<String> dropping) {
        try {
            return Retrying.run(BACKOFF, () -> attempt(worker, dropping), e -> e instanceof CurrentMoved,
                    Scheduler.shared(), Retrying.ANY_THREAD).join();
        } catch (CompletionException e) {
            Throwable c = Errors.unwrap(e);
            if (c instanceof CurrentMoved) {
                throw new IllegalStateException("deploy/current.json kept moving (pushes or other secret changes?): the secrets of "
                        + worker + " are stored but not yet in the current deployment; run the command again");
            }
            throw c instanceof RuntimeException r ? r : e;
        }
    }

    /** One read-derive-swap; fails with {@link CurrentMoved} when another change won the swap. */
    private CompletableFuture<Outcome> attempt(String worker, Set<String> dropping) {
        return deployments.current().thenCompose(cur -> {
            if (cur.isEmpty()) {
                return done(new Outcome(null, null, false, "no deployment is current: the next push of " + worker + " carries its secrets"));
            }
            String running = cur.get().value().deployment();
            return deployments.manifest(running).thenCompose(m -> {
                if (!m.name().equals(worker)) {
                    return done(new Outcome(running, null, false, "the current deployment " + running + " runs the Worker " + m.name()
                            + ", not " + worker + ": the next push of " + worker + " carries its secrets"));
                }
                return secrets.versions(worker).thenCompose(versions -> {
                    Map<String, String> inForce = new TreeMap<>(versions);
                    inForce.keySet().removeAll(dropping);
                    List<Binding> bindings = withSecrets(m.bindings(), inForce);
                    if (bindings.equals(m.bindings())) {
                        return done(new Outcome(running, null, false, "the current deployment " + running + " already runs these secrets"));
                    }
                    long now = clock.nowMs();
                    Manifest next = m.withBindings(DeploymentIds.next(now), now, bindings);
                    return deployments.storeManifest(next)
                            .thenCompose(x -> deployments.moveCurrent(cur, next.id(), clock.nowMs()))
                            .thenCompose(w -> swapped(w, next.id(), running));
                });
            });
        });
    }

    /** Written, or an ambiguous swap that landed after all: published. Anything else: current moved. */
    private CompletableFuture<Outcome> swapped(WriteOutcome w, String next, String previous) {
        if (w.written()) {
            return done(new Outcome(next, previous, true, null));
        }
        if (!(w instanceof WriteOutcome.Ambiguous)) {
            return CompletableFuture.failedFuture(new CurrentMoved());
        }
        return deployments.current().thenCompose(after -> after.isPresent() && after.get().value().deployment().equals(next)
                ? done(new Outcome(next, previous, true, null))
                : CompletableFuture.failedFuture(new CurrentMoved()));
    }

    private static CompletableFuture<Outcome> done(Outcome o) {
        return CompletableFuture.completedFuture(o);
    }

    /** The compare-and-swap of current lost to another change: derive again from what won. */
    private static final class CurrentMoved extends RuntimeException {
        CurrentMoved() {
            super("deploy/current.json moved", null, false, false);
        }
    }

    /**
     * {@code current}'s bindings other than secrets, in their order, then one secret binding per
     * name in force (by name).
     *
     * @throws ClashException naming every secret that has the name of another binding
     */
    public static List<Binding> withSecrets(List<Binding> current, Map<String, String> inForce) {
        List<Binding> out = new ArrayList<>();
        for (Binding b : current) {
            if (!(b instanceof SecretTextBinding)) {
                out.add(b);
            }
        }
        List<String> clashes = SecretNames.clashes(out.stream().map(Binding::name).toList(), inForce.keySet());
        if (!clashes.isEmpty()) {
            throw new ClashException(clashMessage(clashes, out));
        }
        new TreeMap<>(inForce).forEach((name, version) -> out.add(new SecretTextBinding(name, version)));
        return out;
    }

    /** "secret X clashes with the plain_text binding X (a var)…": what Cloudflare calls "binding name already in use". */
    public static String clashMessage(List<String> clashes, List<Binding> others) {
        List<String> parts = new ArrayList<>();
        for (String c : clashes) {
            String type = others.stream().filter(b -> b.name().equals(c)).map(Binding::type).findFirst().orElse("?");
            parts.add(c + " (already a " + type + " binding" + (type.equals("plain_text") ? ", a var" : "") + ")");
        }
        return "binding name already in use: a secret cannot have the name of another binding of the Worker: " + String.join(", ", parts)
                + "; rename the secret or the binding";
    }
}
