package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Alarms fire even when no node holds the cell: the waker finds them in the wake index (issue H). */
class AlarmWakeIT {
    static final String WORKER = """
            import { DurableObject } from "cloudflare:workers";
            export class Timer extends DurableObject {
              async fetch(request) {
                const url = new URL(request.url);
                if (url.pathname.startsWith("/set/")) {
                  const at = Date.now() + Number(url.searchParams.get("in"));
                  await this.ctx.storage.setAlarm(at);
                  return new Response(String(at));
                }
                return Response.json((await this.ctx.storage.get("runs")) ?? []);
              }
              async alarm(info) {
                const runs = (await this.ctx.storage.get("runs")) ?? [];
                runs.push(Date.now());
                await this.ctx.storage.put("runs", runs);
              }
            }
            export default {
              fetch(request, env) {
                const name = new URL(request.url).pathname.split("/")[2];
                return env.TIMER.getByName(name).fetch(request);
              }
            };
            """;

    @TempDir
    static Path dir;
    static Fleet fleet;

    @BeforeAll
    static void start() throws Exception {
        fleet = Fleet.onFileBucket(dir, Map.of("CELLD_TTL_MS", "3000", "CELLD_WAKER_TICK_MS", "1000", "CELLD_IDLE_EVICT_MS", "1500"));
        try (BucketStore b = fleet.openBucket()) {
            TestDeployments.publish(b, "alarms", Map.of("index.js", WORKER), "index.js", Map.of("TIMER", "Timer"), Map.of());
        }
        fleet.start("a1");
        fleet.start("a2");
    }

    @AfterAll
    static void stop() {
        if (fleet != null) {
            fleet.close();
        }
    }

    /** The first alarm.fired line for a scope on any node, waiting up to {@code timeout}. */
    static JsonObject firedOn(List<NodeProcess> nodes, String scopePart, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            for (NodeProcess n : nodes) {
                for (JsonObject e : n.events("alarm.fired")) {
                    if (e.getString("scope").contains(scopePart)) {
                        return e.put("on", n.name());
                    }
                }
            }
            Thread.sleep(100);
        }
        return null;
    }

    static String scopeOf(NodeProcess n, String name) throws Exception {
        for (JsonObject e : n.events("cell.activated")) {
            return e.getString("scope"); // the test activates one cell per node before asking
        }
        throw new AssertionError("no activation on " + n.name() + " for " + name);
    }

    @Test
    void anEvictedCellsAlarmFiresWithoutAnyRequest() throws Exception {
        NodeProcess a2 = fleet.nodes.get(1);
        long at = Long.parseLong(a2.post(a2.publicUrl("/set/evicted?in=5000"), "").body());
        String scope = a2.events("cell.activated").get(0).getString("scope");
        a2.awaitLine(l -> l.contains("\"event\":\"cell.released\"") && l.contains(scope), Duration.ofSeconds(30));
        JsonObject fired = firedOn(fleet.nodes, scope, Duration.ofSeconds(40));
        assertThat(fired).as("alarm fired after the cell was evicted, with no request").isNotNull();
        long firedMs = java.time.Instant.parse(fired.getString("ts")).toEpochMilli();
        assertThat(firedMs).isGreaterThanOrEqualTo(at - 50);
        List<Object> runs = new io.vertx.core.json.JsonArray(a2.get(a2.publicUrl("/runs/evicted")).body()).getList();
        assertThat(runs).hasSize(1);
    }

    @Test
    void anAlarmOfAKilledNodesCellFiresOnAnotherNode() throws Exception {
        NodeProcess victim = fleet.start("a3");
        long at = Long.parseLong(victim.post(victim.publicUrl("/set/orphan?in=4000"), "").body());
        String scope = victim.events("cell.activated").get(0).getString("scope");
        victim.sigkill();
        victim.waitForExit(Duration.ofSeconds(30));
        fleet.nodes.remove(victim);
        JsonObject fired = firedOn(fleet.nodes, scope, Duration.ofSeconds(40));
        assertThat(fired).as("alarm fired on a surviving node").isNotNull();
        assertThat(fired.getString("on")).isIn("a1", "a2");
        long firedMs = java.time.Instant.parse(fired.getString("ts")).toEpochMilli();
        // within a few waker ticks of the later of (alarm time, lease expiry + waker lease takeover)
        assertThat(firedMs - at).as("ms after the alarm time").isLessThan(20_000);
    }
}
