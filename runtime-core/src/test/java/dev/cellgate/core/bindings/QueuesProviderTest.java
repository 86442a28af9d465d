package dev.cellgate.core.bindings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.deploy.Deployment;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.deploy.WorkerSettings;
import dev.cellgate.core.deploy.bindings.Binding;
import dev.cellgate.core.deploy.bindings.QueueConsumer;
import dev.cellgate.core.deploy.bindings.QueueProducerBinding;
import dev.cellgate.core.spi.js.EnvBinding;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which queue cell a binding reaches, which deployments get the hidden queues binding, and which settings are refused. */
class QueuesProviderTest {
    private static final QueueConsumer JOBS = new QueueConsumer("jobs", 20L, null, 2L, "dead", null, 5L);

    @Test
    void aQueueIsNamedByItsNameAlone() {
        assertThat(QueueCells.scopeOf("jobs")).isEqualTo(QueueCells.CLASS_NAME + ":" + QueueCells.hexOf("jobs"))
                .isNotEqualTo(QueueCells.scopeOf("jobs2"));
        assertThat(QueueCells.hexOf("jobs")).hasSize(64).isNotEqualTo(D1Cells.hexOf(null, "jobs"));
        Object scope = new QueueProducerProvider().open(new EnvBinding("A", "queue", new JsonObject().put("queue_name", "jobs")), null);
        assertThat(scope).isEqualTo(QueueCells.scopeOf("jobs"));
    }

    @Test
    void producerSettingsAreChecked() {
        QueueProducerProvider p = new QueueProducerProvider();
        assertThatThrownBy(() -> p.check(new EnvBinding("A", "queue", new JsonObject()))).hasMessageContaining("needs a queue name");
        assertThatThrownBy(() -> p.check(new EnvBinding("A", "queue", new JsonObject().put("queue_name", "q").put("delivery_delay", 86_401))))
                .hasMessageContaining("delivery_delay must be a whole number of seconds from 0 to 86400");
    }

    @Test
    void theHostAnswersWithQueueDelivery() {
        QueuesHost host = (QueuesHost) new QueuesProvider(null).open(QueuesProvider.binding(List.of(JOBS)), null);
        assertThat(new JsonObject(host.consumer("jobs")).getMap()).containsEntry("maxBatchSize", 20).containsEntry("maxBatchTimeoutS", 5)
                .containsEntry("maxRetries", 2).containsEntry("retryDelayS", 5).containsEntry("deadLetterQueue", "dead");
        assertThat(host.consumer("other")).isNull();
        assertThat(host.next("jobs", 20, 1000, -1, 1000)).isEqualTo("[20,-1]");
        assertThat(host.fate("jobs", 1, "RETRY", -1, "NONE", -1, false, 1000)).isEqualTo("REDELIVER:6000");
        assertThat(host.fate("jobs", 3, "NONE", -1, "NONE", -1, true, 1000)).isEqualTo("DEAD_LETTER");
        assertThat(host.broken()).isNull();
        assertThatThrownBy(() -> host.next("other", 1, 0, -1, 0)).hasMessageContaining("queue other has no consumer");
    }

    @Test
    void badConsumersAndAnUnknownBrokenSwitchAreRefused() {
        QueuesProvider p = new QueuesProvider(null);
        assertThatThrownBy(() -> p.check(QueuesProvider.binding(List.of(new QueueConsumer("q", null, 61L, null, null, null, null)))))
                .hasMessageContaining("the consumer of queue q: max_batch_timeout must be 0 to 60");
        assertThatThrownBy(() -> p.check(QueuesProvider.binding(List.of(new QueueConsumer("q", null, null, null, "q", null, null)))))
                .hasMessageContaining("names its own queue as its dead_letter_queue");
        assertThatThrownBy(() -> p.check(QueuesProvider.binding(List.of(JOBS, JOBS)))).hasMessageContaining("has two consumers");
        assertThatThrownBy(() -> new QueuesProvider("ack-early")).hasMessageContaining("CELLGATE_TEST_BROKEN_QUEUE must be");
        assertThat(new QueuesProvider(QueuesProvider.BROKEN_DELETE_BEFORE_HANDLER).open(QueuesProvider.binding(List.of()), null))
                .extracting(h -> ((QueuesHost) h).broken()).isEqualTo(QueuesProvider.BROKEN_DELETE_BEFORE_HANDLER);
    }

    @Test
    void aDeploymentWithAProducerOrAConsumerGetsTheHiddenBindingAndOthersDoNot() throws Exception {
        assertThat(hidden(List.of(new QueueProducerBinding("JOBS", "jobs", null)), List.of())).isNotNull();
        EnvBinding consumerOnly = hidden(List.of(), List.of(JOBS));
        assertThat(consumerOnly).as("a consumer without a producer in this Worker").isNotNull();
        assertThat(QueueConsumer.decode(consumerOnly.settings().getJsonArray("consumers"))).containsExactly(JOBS);
        assertThat(hidden(List.of(), List.of())).isNull();
    }

    private static EnvBinding hidden(List<Binding> bindings, List<QueueConsumer> consumers) throws Exception {
        Manifest m = new Manifest("d1", "app", 1, "index.js", List.of(new Manifest.BlobRef("index.js", "aa", 3)), bindings, null,
                "2025-01-01", List.of(), null, List.of(), new WorkerSettings(null, consumers, null, null, null));
        Deployment d = new Deployment(m, Map.of("index.js", "export default {}".getBytes(StandardCharsets.UTF_8)));
        return d.toBundle(Map.of(), Map.of()).bindings().stream().filter(b -> b.name().equals(QueuesProvider.BINDING_NAME)).findFirst()
                .orElse(null);
    }
}
