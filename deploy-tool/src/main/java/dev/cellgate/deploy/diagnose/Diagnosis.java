package dev.cellgate.deploy.diagnose;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.fleet.PeerSignature;
import dev.cellgate.core.fleet.StoredRecord;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.CurrentDeployment;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.MalformedRecordException;
import dev.cellgate.core.records.PeerAuthRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.store.probe.ProbeResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * One look at a fleet through its bucket: the node leases, a signed probe of each live node, the
 * current deployment pointer, and (unless read-only) the storage conditional-write check. Every
 * step runs even when an earlier one failed, and each failure becomes a named problem in the
 * report rather than an exception: an operator needs the whole picture, not the first error.
 */
public final class Diagnosis {
    private final BucketStore store;
    private final StorageCheck storage;
    private final Duration timeout;
    private final List<String> peers;
    private final boolean readOnly;
    private final List<String> problems = new ArrayList<>();

    /**
     * @param peers    nodes to probe; empty probes every live node
     * @param storage  the storage step; unused when {@code readOnly}
     */
    public Diagnosis(BucketStore store, StorageCheck storage, Duration timeout, List<String> peers, boolean readOnly) {
        this.store = store;
        this.storage = storage;
        this.timeout = timeout;
        this.peers = List.copyOf(peers);
        this.readOnly = readOnly;
    }

    /** The report: {@code ok} is true only when no step found a problem. */
    public JsonObject run() {
        long now = System.currentTimeMillis();
        List<LeaseReview.Verdict> verdicts = new ArrayList<>();
        JsonArray leases = leases(now, verdicts);
        Optional<PeerSignature> key = fleetKey(verdicts);
        JsonArray probes = probes(verdicts, key);
        JsonObject deployment = deployment();
        JsonObject storageJson = storage();
        return new JsonObject().put("ok", problems.isEmpty()).put("bucket", store.url()).put("now_ms", now)
                .put("read_only", readOnly).put("problems", new JsonArray(new ArrayList<>(problems)))
                .put("leases", leases).put("peers", probes).put("deployment", deployment).put("storage", storageJson);
    }

    private JsonArray leases(long now, List<LeaseReview.Verdict> out) {
        JsonArray arr = new JsonArray();
        List<String> keys;
        try {
            keys = listAll(Keys.NODES);
        } catch (RuntimeException e) {
            problems.add("cannot list " + Keys.NODES + ": " + root(e));
            return arr;
        }
        Map<String, CompletableFuture<Optional<StoredObject>>> reads = new LinkedHashMap<>();
        keys.forEach(k -> reads.put(k, store.get(k)));
        List<LeaseReview.Read> ok = new ArrayList<>();
        for (Map.Entry<String, CompletableFuture<Optional<StoredObject>>> r : reads.entrySet()) {
            try {
                ok.add(new LeaseReview.Read(r.getKey(), await(r.getValue()).map(StoredObject::bytes).orElse(null)));
            } catch (RuntimeException e) {
                problems.add("lease " + r.getKey() + ": cannot read: " + root(e));
                arr.add(new JsonObject().put("key", r.getKey()).put("status", "unreadable").put("ok", false)
                        .put("problems", new JsonArray().add("cannot read: " + root(e))));
            }
        }
        for (LeaseReview.Verdict v : LeaseReview.review(ok, now)) {
            out.add(v);
            v.problems().forEach(p -> problems.add("lease " + (v.node() == null ? v.key() : v.node()) + ": " + p));
            arr.add(leaseJson(v, now));
        }
        return arr;
    }

    private static JsonObject leaseJson(LeaseReview.Verdict v, long now) {
        JsonObject j = new JsonObject().put("key", v.key()).put("node", v.node()).put("status", v.status().name().toLowerCase())
                .put("ok", v.ok()).put("problems", new JsonArray(new ArrayList<>(v.problems())));
        LeaseRecord l = v.lease();
        if (l != null) {
            j.put("session", l.session()).put("advertise", l.advertise()).put("protocol", l.protocol())
                    .put("started_ms", l.startedMs()).put("expires_ms", l.expiresMs()).put("expires_in_ms", l.expiresMs() - now)
                    .put("load", new JsonObject().put("resident", l.load().resident()).put("max_resident", l.load().maxResident())
                            .put("pressured", l.load().pressured()).put("restoring", l.load().restoring()));
        }
        return j;
    }

    private Optional<PeerSignature> fleetKey(List<LeaseReview.Verdict> verdicts) {
        boolean anyLive = verdicts.stream().anyMatch(v -> v.status() == LeaseReview.Status.LIVE);
        try {
            Optional<StoredObject> o = await(store.get(Keys.PEER_AUTH));
            if (o.isEmpty()) {
                if (anyLive) {
                    problems.add("fleet key " + Keys.PEER_AUTH + " is missing while nodes are live: peers cannot authenticate");
                }
                return Optional.empty();
            }
            return Optional.of(new PeerSignature(PeerAuthRecord.decode(o.get().bytes()).keyHex()));
        } catch (MalformedRecordException e) {
            problems.add("fleet key " + Keys.PEER_AUTH + " is malformed: " + e.getMessage());
        } catch (RuntimeException e) {
            problems.add("cannot read fleet key " + Keys.PEER_AUTH + ": " + root(e));
        }
        return Optional.empty();
    }

    private JsonArray probes(List<LeaseReview.Verdict> verdicts, Optional<PeerSignature> key) {
        JsonArray arr = new JsonArray();
        List<LeaseReview.Verdict> targets = new ArrayList<>();
        if (peers.isEmpty()) {
            verdicts.stream().filter(v -> v.status() == LeaseReview.Status.LIVE).forEach(targets::add);
        } else {
            for (String p : peers) {
                Optional<LeaseReview.Verdict> v = verdicts.stream().filter(x -> p.equals(x.node())).findFirst();
                if (v.isEmpty() || v.get().status() != LeaseReview.Status.LIVE) {
                    String why = v.isEmpty() ? "has no lease under " + Keys.NODES : "has no live lease (" + v.get().status().name().toLowerCase() + ")";
                    problems.add("peer " + p + ": " + why);
                    arr.add(new JsonObject().put("node", p).put("ok", false).put("reachable", false).put("problems", new JsonArray().add(why)));
                } else {
                    targets.add(v.get());
                }
            }
        }
        Map<String, CompletableFuture<PeerProber.Outcome>> running = new LinkedHashMap<>();
        PeerProber prober = key.map(k -> new PeerProber(k, timeout)).orElse(null);
        for (LeaseReview.Verdict v : targets) {
            String skip = v.address() == null ? "not probed: unusable advertise address"
                    : v.address().kind() == AdvertiseAddress.Kind.WILDCARD ? "not probed: wildcard advertise address"
                    : prober == null ? "not probed: no usable fleet key" : null;
            if (skip != null) {
                problems.add("peer " + v.node() + ": " + skip);
                arr.add(new JsonObject().put("node", v.node()).put("advertise", v.lease().advertise()).put("ok", false)
                        .put("reachable", false).put("problems", new JsonArray().add(skip)));
            } else {
                running.put(v.node(), prober.probe(v.node(), v.address()));
            }
        }
        for (Map.Entry<String, CompletableFuture<PeerProber.Outcome>> r : running.entrySet()) {
            PeerProber.Outcome o = r.getValue().join(); // the prober turns every failure into an outcome
            o.problems().forEach(p -> problems.add("peer " + o.node() + ": " + p));
            arr.add(new JsonObject().put("node", o.node()).put("advertise", o.advertise()).put("ok", o.ok())
                    .put("reachable", o.reachable()).put("status", o.status()).put("protocol", o.protocol())
                    .put("auth_ok", o.authOk()).put("draining", o.draining()).put("load", o.load())
                    .put("latency_ms", o.latencyMs()).put("problems", new JsonArray(new ArrayList<>(o.problems()))));
        }
        return arr;
    }

    private JsonObject deployment() {
        JsonObject j = new JsonObject();
        DeploymentStore d = new DeploymentStore(store);
        try {
            Optional<StoredRecord<CurrentDeployment>> cur = await(d.current());
            if (cur.isEmpty()) {
                return j.put("ok", true).put("current", null).put("note", "nothing deployed yet");
            }
            CurrentDeployment c = cur.get().value();
            j.put("current", c.deployment()).put("previous", c.previous()).put("ms", c.ms());
            Manifest m = await(d.manifest(c.deployment()));
            return j.put("ok", true).put("name", m.name()).put("modules", m.modules().size()).put("plugins", m.plugins().size());
        } catch (RuntimeException e) {
            String p = Keys.CURRENT_DEPLOYMENT + ": " + root(e);
            problems.add("deployment: " + p);
            return j.put("ok", false).put("problems", new JsonArray().add(p));
        }
    }

    private JsonObject storage() {
        if (readOnly) {
            return new JsonObject().put("ok", true).put("skipped", true).put("summary", "skipped (--read-only)");
        }
        try {
            ProbeResult r = storage.run(store, PeerProber.SOURCE);
            if (!r.ok()) {
                problems.add("storage: " + r.summary());
            }
            return new JsonObject(r.toMap()).put("skipped", false);
        } catch (RuntimeException e) {
            problems.add("storage: the check failed to run: " + root(e));
            return new JsonObject().put("ok", false).put("skipped", false).put("summary", "the check failed to run: " + root(e));
        }
    }

    private List<String> listAll(String prefix) {
        List<String> keys = new ArrayList<>();
        String cursor = null;
        do {
            var page = await(store.list(prefix, cursor, 1000));
            keys.addAll(page.keys());
            cursor = page.nextCursor();
        } while (cursor != null);
        return keys;
    }

    private <T> T await(CompletableFuture<T> f) {
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("no answer from the bucket within " + timeout.toMillis() + " ms");
        } catch (java.util.concurrent.ExecutionException e) {
            throw new CompletionException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    static String root(Throwable e) {
        Throwable c = e;
        while ((c instanceof CompletionException || c instanceof java.util.concurrent.ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        return c.getMessage() == null ? c.toString() : c.getMessage();
    }
}
