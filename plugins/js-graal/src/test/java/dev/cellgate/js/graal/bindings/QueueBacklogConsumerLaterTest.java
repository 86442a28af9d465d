package dev.cellgate.js.graal.bindings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.bindings.FleetBindings;
import dev.cellgate.core.bindings.QueuesProvider;
import dev.cellgate.core.deploy.bindings.QueueConsumer;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.support.HostedCells;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Messages sent while no deployment consumes their queue are delivered once one does, without
 * waiting for another send: deployment 1 only produces to {@code jobs}, deployment 2 also consumes
 * it. Failed first: the queue's cell moved to deployment 2 with its three messages and no alarm, and
 * nothing was delivered until the next send.
 */
class QueueBacklogConsumerLaterTest {
    static final String WORKER = """
            import { DurableObject } from 'cloudflare:workers';
            export class Seen extends DurableObject {
              add(n) { const v = (this.ctx.storage.kv.get('n') ?? 0) + n; this.ctx.storage.kv.put('n', v); return v; }
              count() { return this.ctx.storage.kv.get('n') ?? 0; }
            }
            export default {
              async fetch(request, env) {
                if (new URL(request.url).pathname === '/send') {
                  await env.JOBS.sendBatch([{ body: 1 }, { body: 2 }, { body: 3 }]);
                  return new Response('sent');
                }
                return new Response(String(await env.SEEN.getByName('s').count()));
              },
              async queue(batch, env) { await env.SEEN.getByName('s').add(batch.messages.length); },
            };
            """;

    static ScriptBundle bundle(String id, List<QueueConsumer> consumers) {
        return new ScriptBundle(id, "w", "worker.js", Map.of("worker.js", WORKER), Map.of(), Map.of("SEEN", "Seen"), "2025-04-01", List.of())
                .withBindings(List.of(new EnvBinding("JOBS", "queue", new JsonObject().put("queue_name", "jobs")),
                        QueuesProvider.binding(consumers)));
    }

    @Test
    void aBacklogIsDeliveredWhenADeploymentAddsTheConsumer() throws Exception {
        try (TestEngine engine = new TestEngine(FleetBindings.registry(null))) {
            LoadedScript producerOnly = engine.load(bundle("d-1", List.of()));
            LoadedScript consumer = engine.load(bundle("d-2", List.of(new QueueConsumer("jobs", null, 1L, null, null, null, null))));
            AtomicReference<LoadedScript> current = new AtomicReference<>(producerOnly);
            try (HostedCells cells = new HostedCells(engine.vertx, current::get)) {
                HostedCells.Worker w1 = cells.worker();
                assertThat(get(w1, "/send")).isEqualTo("sent");
                Thread.sleep(1500);
                assertThat(get(w1, "/count")).as("no consumer yet: the messages wait").isEqualTo("0");
                w1.close();

                current.set(consumer);
                cells.cells().moveToCurrentCode();
                HostedCells.Worker w2 = cells.worker();
                String seen = get(w2, "/count");
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (!"3".equals(seen) && System.nanoTime() < end) {
                    Thread.sleep(50);
                    seen = get(w2, "/count");
                }
                assertThat(seen).as("the backlog reached the new deployment's queue() without another send").isEqualTo("3");
                w2.close();
            }
        }
    }

    private static String get(HostedCells.Worker w, String path) throws Exception {
        return Responses.text(w.send(new HttpRequestData("GET", "http://q.test" + path, List.of(), Body.EMPTY, "t")).get(30, TimeUnit.SECONDS));
    }
}
