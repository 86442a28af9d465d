package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cron triggers across a fleet (SPEC §17, issue 21 item 6): real {@code java -jar} nodes, a
 * {@code * * * * *} trigger whose {@code scheduled()} appends its controller to a Durable Object.
 * Every node times the trigger and races for each occurrence; exactly one run per occurrence may
 * happen, with distinct, minute-aligned scheduledTimes. Issue 21's acceptance case: 3 nodes, 3
 * occurrences. It runs under qualify, not CI: 2m45s to 3m08s measured on a loaded 2-core box, under 4 minutes at
 * worst (a publish just after a minute boundary waits 59 s for the first occurrence), and real minutes cannot be
 * shortened. CI keeps the same claim and race logic in {@code CronTickerTest} on simulated time.
 */
class CronTriggersScenario {
    static final String WORKER = """
            import { DurableObject } from "cloudflare:workers";
            export class Runs extends DurableObject {
              async fetch(request) {
                if (request.method === "POST") {
                  const runs = (await this.ctx.storage.get("runs")) ?? [];
                  runs.push(await request.json());
                  await this.ctx.storage.put("runs", runs);
                  return new Response("ok");
                }
                return Response.json((await this.ctx.storage.get("runs")) ?? []);
              }
            }
            export default {
              async scheduled(controller, env, ctx) {
                const run = { cron: controller.cron, scheduledTime: controller.scheduledTime, at: Date.now() };
                await env.RUNS.getByName("log").fetch("https://runs/", { method: "POST", body: JSON.stringify(run) });
              },
              fetch(request, env) {
                return env.RUNS.getByName("log").fetch(request);
              }
            };
            """;
    static final String CRON = "* * * * *";

    @TempDir
    Path dir;
    Fleet fleet;

    @AfterEach
    void stop() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void threeNodesRunEachOfThreeOccurrencesOnce() throws Exception {
        fleet = Fleet.onFileBucket(dir, Map.of("CELLD_TTL_MS", "3000"));
        everyOccurrenceOnce(fleet, List.of("k1", "k2", "k3"), 3);
    }

    /**
     * Starts the nodes, publishes the Worker, waits for {@code occurrences} minute boundaries after
     * the publish (plus 15 s for the last run to land), and checks the Durable Object's log and the nodes' claims.
     */
    static void everyOccurrenceOnce(Fleet fleet, List<String> names, int occurrences) throws Exception {
        List<NodeProcess> nodes = new ArrayList<>();
        for (String n : names) {
            nodes.add(fleet.startBeforeDeploying(n)); // not healthy before the publish below
        }
        long published = System.currentTimeMillis();
        try (BucketStore b = fleet.openBucket()) {
            TestDeployments.publish(b, "crons", Map.of("index.js", WORKER), "index.js", Map.of("RUNS", "Runs"), Map.of(), Map.of(),
                    List.of(), List.of(CRON));
        }
        // the first occurrence at or after the moment the deployment became current
        long first = Math.floorDiv(published + 59_999, 60_000) * 60_000;
        long last = first + (occurrences - 1) * 60_000L;
        Thread.sleep(Math.max(0, last + 15_000 - System.currentTimeMillis()));
        var r = Fleet.getServed(nodes.getFirst(), "/runs", java.time.Duration.ofSeconds(30));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonArray runs = new JsonArray(r.body());
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            JsonObject run = runs.getJsonObject(i);
            assertThat(run.getString("cron")).isEqualTo(CRON);
            times.add(run.getLong("scheduledTime"));
        }
        int claims = 0;
        int failed = 0;
        for (NodeProcess n : nodes) {
            claims += n.events("cron.claimed").size();
            failed += n.events("cron.failed").size();
        }
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < occurrences; i++) {
            expected.add(first + i * 60_000L);
        }
        System.out.printf("cron runs on %d nodes: %s (claims logged %d, failed %d)%n", nodes.size(), runs.encode(), claims, failed);
        assertThat(times).as("one run per occurrence, minute-aligned, in order").containsExactlyElementsOf(expected);
        assertThat(claims).as("claims won across the fleet").isEqualTo(occurrences);
        assertThat(failed).isZero();
    }
}
