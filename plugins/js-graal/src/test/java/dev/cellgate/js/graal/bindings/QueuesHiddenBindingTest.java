package dev.cellgate.js.graal.bindings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.bindings.FleetBindings;
import dev.cellgate.core.bindings.QueueCells;
import dev.cellgate.core.bindings.QueuesProvider;
import dev.cellgate.core.deploy.bindings.QueueConsumer;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The queue cells' class and the hidden {@code $cellgate$queues} binding are the engine's own: the
 * class exists only in a deployment with queues, the binding never appears on {@code env}, no export
 * may take the class's name, and a bad consumer setting refuses the deployment by name.
 */
class QueuesHiddenBindingTest {
    private static TestEngine engine;

    @BeforeAll
    static void start() {
        engine = new TestEngine(FleetBindings.registry(null));
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    private static ScriptBundle bundle(String source, List<EnvBinding> bindings) {
        return new ScriptBundle("w", "w", "worker.js", Map.of("worker.js", source), Map.of(), Map.of(), "2025-01-01", List.of())
                .withBindings(bindings);
    }

    private static final List<EnvBinding> QUEUES = List.of(new EnvBinding("JOBS", "queue", new JsonObject().put("queue_name", "jobs")),
            QueuesProvider.binding(List.of(new QueueConsumer("jobs", null, null, null, null, null, null))));

    @Test
    void theBuiltInClassExistsOnlyWithQueuesAndTheHiddenBindingIsNotOnEnv() throws Exception {
        String worker = "export class Room {}\nexport default { fetch(r, env) { return Response.json(Object.keys(env)); }, queue() {} };";
        try (LoadedScript with = engine.load(bundle(worker, QUEUES)); LoadedScript without = engine.load(bundle(worker, List.of()))) {
            assertThat(with.exportedClasses()).containsExactlyInAnyOrder("Room", QueueCells.CLASS_NAME);
            assertThat(without.exportedClasses()).containsExactly("Room");
        }
        try (TestWorker w = engine.worker(bundle(worker, QUEUES))) {
            var r = w.send(new HttpRequestData("GET", "http://x/", List.of(), dev.cellgate.core.spi.js.Body.EMPTY, "t")).get(30, TimeUnit.SECONDS);
            assertThat(Responses.text(r)).isEqualTo("[\"JOBS\"]");
        }
    }

    @Test
    void anExportNamedLikeTheBuiltInClassIsRefusedAtLoad() {
        String worker = "class X {}\nexport { X as $cellgate$Queue };\nexport default { fetch() { return new Response('ok'); } };";
        assertThatThrownBy(() -> engine.load(bundle(worker, QUEUES)).close())
                .hasMessageContaining("$cellgate$Queue").hasMessageContaining("reserved");
    }

    @Test
    void aBadConsumerSettingRefusesTheDeploymentByName() {
        String worker = "export default { fetch() { return new Response('ok'); } };";
        List<EnvBinding> bad = List.of(QueuesProvider.binding(List.of(new QueueConsumer("jobs", 500L, null, null, null, null, null))));
        assertThatThrownBy(() -> engine.load(bundle(worker, bad)).close())
                .hasMessageContaining("the consumer of queue jobs: max_batch_size must be 1 to 100");
        List<EnvBinding> parallel = List.of(QueuesProvider.binding(List.of(new QueueConsumer("jobs", null, null, null, null, 4L, null))));
        assertThatThrownBy(() -> engine.load(bundle(worker, parallel)).close()).hasMessageContaining("max_concurrency 4 is not supported");
    }
}
