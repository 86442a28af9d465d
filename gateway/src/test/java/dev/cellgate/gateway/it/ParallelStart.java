package dev.cellgate.gateway.it;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Starts several nodes at once (each start waits for health; on a busy box that is most of a test's time). */
final class ParallelStart {
    private ParallelStart() {
    }

    /**
     * @param nodes name → extra settings; every node gets {@code CELLD_BUCKET=bucketUrl}
     * @return the started nodes by name; when one fails, the others are stopped and the failure thrown
     */
    static Map<String, NodeProcess> start(Path root, String bucketUrl, Map<String, Map<String, String>> nodes) throws Exception {
        // Own threads: the common pool has a single thread on a 2-core machine.
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(nodes.size());
        Map<String, CompletableFuture<NodeProcess>> starting = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, String>> n : nodes.entrySet()) {
            Map<String, String> env = new LinkedHashMap<>(n.getValue());
            env.put("CELLD_BUCKET", bucketUrl);
            starting.put(n.getKey(), CompletableFuture.supplyAsync(() -> {
                try {
                    return NodeProcess.start(n.getKey(), root.resolve(n.getKey()), env);
                } catch (Exception e) {
                    throw new CompletionException(e);
                }
            }, threads));
        }
        threads.shutdown();
        Map<String, NodeProcess> out = new LinkedHashMap<>();
        List<Throwable> failures = new ArrayList<>();
        for (Map.Entry<String, CompletableFuture<NodeProcess>> s : starting.entrySet()) {
            try {
                out.put(s.getKey(), s.getValue().join());
            } catch (CompletionException e) {
                failures.add(e.getCause() == null ? e : e.getCause());
            }
        }
        if (!failures.isEmpty()) {
            out.values().forEach(NodeProcess::close);
            AssertionError err = new AssertionError("could not start every node: " + failures.get(0).getMessage(), failures.get(0));
            failures.stream().skip(1).forEach(err::addSuppressed);
            throw err;
        }
        return out;
    }
}
