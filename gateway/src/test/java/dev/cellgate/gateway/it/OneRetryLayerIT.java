package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.gateway.faults.FaultPlan.Action;
import dev.cellgate.gateway.faults.RetryBudget;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30 item 7 on a real node and the S3 server behind the fault proxy: one retry layer (the
 * store's) and an overall activation deadline. An object that keeps failing is asked at most the
 * store's attempts (it was 6 replicator retries × 6 store attempts = 36), and a bucket that hangs
 * costs an activation at most its deadline, after which its slot serves other cells.
 */
class OneRetryLayerIT {
    static final long DEADLINE_MS = 8000;

    @TempDir
    Path dir;

    /** A counter at 3 on cell {@code name}, written by a first node that then stopped gracefully; returns the cell's scope. */
    private static String counterAtThree(ProxiedCounter c, String name) throws Exception {
        NodeProcess first = c.start("writer", Map.of());
        for (int i = 1; i <= 3; i++) {
            assertThat(first.get(first.publicUrl("/" + name)).body()).isEqualTo(String.valueOf(i));
        }
        first.sigterm();
        assertThat(first.waitForExit(Duration.ofSeconds(60))).isZero();
        c.fleet.nodes.remove(first);
        try (BucketStore b = c.direct()) {
            return MissingPinIT.listAll(b, "cells/").stream().filter(k -> k.endsWith("/own.json")).findFirst().orElseThrow()
                    .split("/")[1];
        }
    }

    @Test
    void anObjectThatKeepsFailingIsAskedAtMostTheStoresAttempts() throws Exception {
        try (ProxiedCounter c = new ProxiedCounter(dir, "one-retry-layer")) {
            String scope = counterAtThree(c, "retry");
            String segment;
            try (BucketStore b = c.direct()) {
                List<String> segments = MissingPinIT.listAll(b, "cells/" + scope + "/wal/").stream()
                        .filter(k -> k.endsWith(".seg")).toList();
                assertThat(segments).isNotEmpty();
                segment = segments.getFirst();
            }
            AtomicInteger gets = new AtomicInteger();
            c.proxy.plan().add("the segment's GETs fail", call -> {
                boolean hit = call.method().equals("GET") && call.key().endsWith(segment);
                if (hit) {
                    gets.incrementAndGet();
                }
                return hit;
            }, 1.0, Action.RESET);

            NodeProcess n = c.start("reader", Map.of());
            HttpResponse<String> r = n.get(n.publicUrl("/retry"));
            JsonObject e = ProxiedCounter.caught(r);
            assertThat(e).as(r.statusCode() + " " + r.body()).isNotNull();
            assertThat(e.getString("error")).contains(segment);
            System.out.printf("failing object: %d GETs of %s%n", gets.get(), segment);
            assertThat(gets.get()).as("GETs of " + segment).isLessThanOrEqualTo(RetryBudget.STORE_S3.maxAttempts());
        }
    }

    @Test
    void aHungBucketCostsAnActivationAtMostItsDeadlineAndFreesItsSlot() throws Exception {
        try (ProxiedCounter c = new ProxiedCounter(dir, "hung-bucket")) {
            String scope = counterAtThree(c, "hung");
            String lineage = "cells/" + scope + "/wal/";
            AtomicInteger toLineage = new AtomicInteger();
            c.proxy.plan().add("count the lineage's requests", call -> {
                if (call.under(lineage)) {
                    toLineage.incrementAndGet();
                }
                return false;
            }, 0.0, Action.FORWARD);
            // 8 s: a cold node's first activation (SQLite's native library, the JIT) takes seconds on a busy 2-core box.
            NodeProcess n = c.start("reader", Map.of("CELLD_ACTIVATION_DEADLINE_MS", String.valueOf(DEADLINE_MS), "CELLD_ACTIVATIONS", "1"));
            assertThat(n.get(n.publicUrl("/warm")).body()).as("a first request warms the Worker").isEqualTo("1");
            c.proxy.plan().latency(120_000, 120_000, call -> call.under(lineage)); // the bucket hangs for this cell
            long t0 = System.nanoTime();
            HttpResponse<String> r = n.get(n.publicUrl("/hung"));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            JsonObject e = ProxiedCounter.caught(r);
            assertThat(e).as(r.statusCode() + " " + r.body()).isNotNull();
            assertThat(e.getString("error")).contains("CELLD_ACTIVATION_DEADLINE_MS").contains(scope);
            assertThat(e.getBoolean("retryable")).isTrue();
            assertThat(ms).as("the answer came at the deadline").isBetween(DEADLINE_MS - 100, DEADLINE_MS + 2500);
            n.awaitLine(l -> l.contains("\"cell.activation_deadline\"") && l.contains(scope), Duration.ofSeconds(10));

            long o0 = System.nanoTime();
            assertThat(n.get(n.publicUrl("/other")).body()).as("the only activation slot serves another cell").isEqualTo("1");
            assertThat((System.nanoTime() - o0) / 1_000_000).isLessThan(DEADLINE_MS);
            try (BucketStore b = c.direct()) {
                long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                String owner;
                do {
                    owner = new JsonObject(new String(b.get("cells/" + scope + "/own.json").join().orElseThrow().bytes(),
                            java.nio.charset.StandardCharsets.UTF_8)).getString("node");
                    Thread.sleep(100);
                } while (!owner.isEmpty() && System.nanoTime() < end);
                assertThat(owner).as("the abandoned activation gave the cell back").isEmpty();
            }
            System.out.printf("hung bucket: answered after %d ms (deadline %d ms), %d requests to the hung lineage%n", ms, DEADLINE_MS,
                    toLineage.get());
            assertThat(toLineage.get()).as("requests to the hung cell's lineage").isLessThanOrEqualTo(RetryBudget.STORE_S3.maxAttempts());

            c.proxy.plan().clear();
            long end = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            HttpResponse<String> again;
            do {
                again = n.get(n.publicUrl("/hung"));
            } while (again.statusCode() != 200 && System.nanoTime() < end);
            assertThat(again.body()).as("nothing lost, nothing half-acquired: " + again.statusCode()).isEqualTo("4");
        }
    }
}
