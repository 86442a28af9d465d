package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Warm handoff (issue 22, {@code CELLD_HANDOFF_WARM_MS}): a node stopping with a handoff has its
 * peer activate every cell it releases, so the cell's next request finds it resident there, with
 * its name ({@code ctx.id.name}) as a request would have given it. With the setting at 0 the peer
 * activates nothing until a request comes, which is what the first half would see if the pokes were
 * never sent (the check that this test can fail). Two real nodes on a file bucket, one fleet.
 */
class WarmHandoffIT {
    static final int CELLS = 20;
    static final String WORKER = """
            import { DurableObject } from "cloudflare:workers";
            export class Counter extends DurableObject {
              constructor(ctx, env) {
                super(ctx, env);
                ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS c (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
              }
              async fetch(request) {
                const v = this.ctx.storage.sql.exec(
                  "INSERT INTO c (id, v) VALUES (1, 1) ON CONFLICT(id) DO UPDATE SET v = v + 1 RETURNING v").one().v;
                return new Response(this.ctx.id.name + ":" + v);
              }
            }
            export default {
              async fetch(request, env) {
                return env.COUNTER.getByName(new URL(request.url).pathname.slice(1)).fetch(request);
              }
            };
            """;

    @TempDir
    Path dir;

    @Test
    void thePeerActivatesReleasedCellsBeforeTheirNextRequestAndNotWhenWarmingIsOff() throws Exception {
        try (Fleet f = Fleet.onFileBucket(dir, Map.of("CELLD_TTL_MS", "30000"))) {
            try (BucketStore b = f.openBucket()) {
                TestDeployments.publish(b, "warm", Map.of("index.js", WORKER), "index.js", Map.of("COUNTER", "Counter"), Map.of());
            }
            NodeProcess peer = f.start("warm-peer");

            // Warming on: the stopping node's cells are resident on the peer before anyone asks for them.
            // (The budget is raised from its 5 s default so that a loaded CI box warms all 20: a fresh
            // peer's first activations are slow. DrainConditionTest covers the budget itself.)
            NodeProcess first = f.start("warm-first", Map.of("CELLD_HANDOFF_WARM_MS", "60000"));
            Set<String> warmScopes = populate(first, "w-");
            first.sigterm();
            assertThat(first.waitForExit(Duration.ofSeconds(60))).isZero();
            JsonObject drained = first.events("shutdown.drained").get(0);
            assertThat(drained.getInteger("released")).isEqualTo(CELLS);
            assertThat(drained.getInteger("warmed")).as("released cells the peer activated").isEqualTo(CELLS);
            assertThat(activatedScopes(peer)).as("activated on the peer by the handoff, before any request").containsAll(warmScopes);
            int activationsBefore = peer.events("cell.activated").size();
            for (int i = 0; i < CELLS; i++) {
                assertThat(peer.get(peer.publicUrl("/w-" + i)).body()).as("state and name moved with the cell").isEqualTo("w-" + i + ":2");
            }
            assertThat(peer.events("cell.activated")).as("no activation on the requests: the cells were warm").hasSize(activationsBefore);

            // CELLD_HANDOFF_WARM_MS=0: nothing is activated on the peer until a request comes.
            NodeProcess second = f.start("warm-off", Map.of("CELLD_HANDOFF_WARM_MS", "0"));
            Set<String> coldScopes = populate(second, "c-");
            second.sigterm();
            assertThat(second.waitForExit(Duration.ofSeconds(60))).isZero();
            assertThat(second.events("shutdown.drained").get(0).getInteger("warmed")).isZero();
            Thread.sleep(1000); // a poke sent despite the setting would show within this
            assertThat(activatedScopes(peer)).as("nothing activated on the peer without a request").doesNotContainAnyElementsOf(coldScopes);
            for (int i = 0; i < CELLS; i++) {
                assertThat(peer.get(peer.publicUrl("/c-" + i)).body()).isEqualTo("c-" + i + ":2");
            }
            assertThat(activatedScopes(peer)).as("activated by their requests").containsAll(coldScopes);
        }
    }

    /** {@link #CELLS} cells resident on {@code node}, each written once; their scopes. */
    private static Set<String> populate(NodeProcess node, String prefix) throws Exception {
        for (int i = 0; i < CELLS; i++) {
            assertThat(node.get(node.publicUrl("/" + prefix + i)).body()).isEqualTo(prefix + i + ":1");
        }
        assertThat(node.state().getInteger("resident")).isEqualTo(CELLS);
        return activatedScopes(node);
    }

    private static Set<String> activatedScopes(NodeProcess node) {
        List<JsonObject> acts = node.events("cell.activated");
        return acts.stream().map(e -> e.getString("scope")).collect(Collectors.toSet());
    }
}
