package dev.cellgate.gateway.it;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.gateway.faults.FaultPlan;
import dev.cellgate.gateway.faults.FaultProxy;
import dev.cellgate.gateway.faults.OwnershipWitness;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A fleet of real nodes on the real S3-compatible server where every node reaches the bucket
 * through its OWN {@link FaultProxy} (its S3_ENDPOINT): per-node faults and per-node request
 * rates. The proxies share one {@link OwnershipWitness}. Every process ever started is kept, so
 * the logs of killed and fenced nodes still count in the checks. The Worker is {@link CrashLedger}'s.
 */
final class ProxiedFleet implements AutoCloseable {
    final S3Env s3;
    final Fleet fleet;
    final OwnershipWitness witness = new OwnershipWitness();
    final Map<String, FaultProxy> proxies = new LinkedHashMap<>();
    /** Every process started, in order, with a label unique per process ("n1#2": n1's second process). */
    final List<Map.Entry<String, NodeProcess>> processes = new CopyOnWriteArrayList<>();
    /** The running processes (Fleet's own list is not safe to read from writer threads). */
    final List<NodeProcess> live = new CopyOnWriteArrayList<>();
    private final Map<String, String> common;
    private final long seed;

    private ProxiedFleet(S3Env s3, Fleet fleet, Map<String, String> common, long seed) {
        this.s3 = s3;
        this.fleet = fleet;
        this.common = common;
        this.seed = seed;
    }

    /** A fleet under {@code root} on a fresh prefix of the S3 bucket, the ledger Worker deployed. */
    static ProxiedFleet create(Path root, String scenario, Map<String, String> common, long seed) throws Exception {
        S3Env s3 = S3Env.require();
        Fleet f = Fleet.onBucket(root, s3.freshUrl(scenario), common);
        ProxiedFleet p = new ProxiedFleet(s3, f, common, seed);
        try (BucketStore b = p.openDirect()) {
            TestDeployments.publish(b, "ledger", Map.of("index.js", CrashLedger.WORKER), "index.js", Map.of("LEDGER", "Ledger"), Map.of());
        }
        return p;
    }

    /** The bucket as the test sees it, not through any proxy. */
    BucketStore openDirect() {
        return Fleet.openBucket(fleet.bucketUrl, Map.of("S3_ENDPOINT", s3.endpoint().toString(), "AWS_REGION", s3.region()));
    }

    /** The proxy of node {@code name} (created on first use; it outlives the node's processes). */
    synchronized FaultProxy proxy(String name) throws Exception {
        FaultProxy p = proxies.get(name);
        if (p == null) {
            p = FaultProxy.start(name, s3.endpoint(), new FaultPlan(seed + proxies.size()), witness,
                    Path.of("target", "it-logs", "faults-" + fleet.root.getFileName() + "-" + name + ".log"));
            proxies.put(name, p);
        }
        return p;
    }

    private Map<String, String> envOf(String name) throws Exception {
        Map<String, String> env = new HashMap<>(common);
        env.put("S3_ENDPOINT", proxy(name).endpoint());
        return env;
    }

    /** Starts one node (behind its proxy). */
    NodeProcess start(String name) throws Exception {
        NodeProcess n = fleet.start(name, envOf(name));
        record(name, n);
        return n;
    }

    /**
     * Starts the first node alone (it creates the fleet's key; concurrent first starts on the S3
     * server have been seen to fail "fleet/peer-auth.json vanished after a create race"), then the
     * others at once (a node start takes most of a scenario's time on a busy box).
     */
    List<NodeProcess> startAll(List<String> names) throws Exception {
        List<NodeProcess> out = new ArrayList<>();
        out.add(start(names.get(0)));
        Map<String, Map<String, String>> env = new LinkedHashMap<>();
        for (String n : names.subList(1, names.size())) {
            env.put(n, envOf(n));
        }
        Map<String, NodeProcess> started = ParallelStart.start(fleet.root, fleet.bucketUrl, env);
        for (String n : names.subList(1, names.size())) {
            NodeProcess p = started.get(n);
            fleet.nodes.add(p);
            record(n, p);
            out.add(p);
        }
        return out;
    }

    private void record(String name, NodeProcess n) {
        long earlier = processes.stream().filter(e -> e.getValue().name().equals(name)).count();
        processes.add(Map.entry(name + "#" + (earlier + 1), n));
        live.add(n);
    }

    /** The running process of node {@code name}, or null. */
    NodeProcess node(String name) {
        return live.stream().filter(n -> n.name().equals(name) && n.alive()).findFirst().orElse(null);
    }

    /** The latest process started as node {@code name}, running or not (null if none was). */
    NodeProcess latest(String name) {
        NodeProcess out = null;
        for (Map.Entry<String, NodeProcess> e : processes) {
            if (e.getValue().name().equals(name)) {
                out = e.getValue();
            }
        }
        return out;
    }

    /** Forgets a process that ended (its log stays in {@link #processes}). */
    void ended(NodeProcess n) {
        live.remove(n);
        fleet.nodes.remove(n);
    }

    /** Every scope any process activated. */
    TreeSet<String> scopes() {
        TreeSet<String> out = new TreeSet<>();
        for (Map.Entry<String, NodeProcess> e : processes) {
            e.getValue().events("cell.activated").forEach(j -> out.add(j.getString("scope")));
        }
        return out;
    }

    /** (scope, epoch) activated by more than one process, from every process's cell.activated lines. */
    List<String> doubleActivations() {
        List<Map.Entry<String, JsonObject>> lines = new ArrayList<>();
        for (Map.Entry<String, NodeProcess> e : processes) {
            e.getValue().events("cell.activated").forEach(j -> lines.add(Map.entry(e.getKey(), j)));
        }
        return FleetChecks.doubleActivations(lines);
    }

    long activations() {
        return processes.stream().mapToLong(e -> e.getValue().events("cell.activated").size()).sum();
    }

    /** Self-fence log lines of every process. */
    List<String> fences() {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, NodeProcess> e : processes) {
            e.getValue().lines().stream().filter(l -> l.startsWith("SELF-FENCE:")).forEach(l -> out.add(e.getKey() + ": " + l));
        }
        return out;
    }

    /** The proxies' counts, by node. */
    Map<String, Object> proxyCounts() {
        Map<String, Object> out = new LinkedHashMap<>();
        proxies.forEach((n, p) -> out.put(n, new JsonObject(p.stats().snapshot())));
        return out;
    }

    /** Sum of one proxy counter over the fleet. */
    long sum(String counter) {
        return proxies.values().stream().mapToLong(p -> p.stats().counter(counter)).sum();
    }

    @Override
    public void close() {
        fleet.close();
        proxies.values().forEach(FaultProxy::close);
    }
}
