package dev.cellgate.deploy.wrangler;

import static dev.cellgate.deploy.wrangler.WranglerConfigTest.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.deploy.bindings.QueueConsumer;
import dev.cellgate.core.deploy.bindings.QueueProducerBinding;
import org.junit.jupiter.api.Test;

/** {@code queues} in a Wrangler config: producers become bindings, consumers the manifest's queue_consumers; the rest is refused by name. */
class QueuesKeyTest {
    @Test
    void producersAndConsumersAreRead() {
        WranglerConfig c = parse("{\"queues\":{\"producers\":[{\"binding\":\"JOBS\",\"queue\":\"jobs\",\"delivery_delay\":5}],"
                + "\"consumers\":[{\"queue\":\"jobs\",\"max_batch_size\":20,\"max_batch_timeout\":2,\"max_retries\":4,\"retry_delay\":10,"
                + "\"dead_letter_queue\":\"jobs-dlq\",\"max_concurrency\":1,\"type\":\"worker\"},{\"queue\":\"other\"}]}}");
        assertThat(c.bindings()).containsExactly(new QueueProducerBinding("JOBS", "jobs", 5L));
        assertThat(c.queueConsumers()).containsExactly(new QueueConsumer("jobs", 20L, 2L, 4L, "jobs-dlq", 1L, 10L),
                new QueueConsumer("other", null, null, null, null, null, null));
    }

    @Test
    void whatWouldBeAcceptedAndIgnoredIsRefusedByName() {
        assertThatThrownBy(() -> parse("{\"queues\":{\"consumers\":[{\"queue\":\"q\",\"max_concurrency\":5}]}}"))
                .hasMessageContaining("max_concurrency 5 is not supported");
        assertThatThrownBy(() -> parse("{\"queues\":{\"consumers\":[{\"queue\":\"q\",\"type\":\"http_pull\"}]}}"))
                .hasMessageContaining("type http_pull is not supported");
        assertThatThrownBy(() -> parse("{\"queues\":{\"consumers\":[{\"queue\":\"q\",\"visibility_timeout_ms\":100}]}}"))
                .hasMessageContaining("visibility_timeout_ms\" is not supported by cellgate: it is for pull consumers");
        assertThatThrownBy(() -> parse("{\"queues\":{\"consumers\":[{\"queue\":\"q\",\"max_batch_size\":101}]}}"))
                .hasMessageContaining("max_batch_size must be 1 to 100");
        assertThatThrownBy(() -> parse("{\"queues\":{\"consumers\":[{\"queue\":\"q\",\"max_batch_timeout\":61}]}}"))
                .hasMessageContaining("max_batch_timeout must be 0 to 60");
        assertThatThrownBy(() -> parse("{\"queues\":{\"consumers\":[{\"queue\":\"q\",\"max_retries\":101}]}}"))
                .hasMessageContaining("max_retries must be 0 to 100");
        assertThatThrownBy(() -> parse("{\"queues\":{\"consumers\":[{\"queue\":\"q\",\"dead_letter_queue\":\"q\"}]}}"))
                .hasMessageContaining("dead_letter_queue names the queue itself");
        assertThatThrownBy(() -> parse("{\"queues\":{\"consumers\":[{\"queue\":\"q\"},{\"queue\":\"q\"}]}}"))
                .hasMessageContaining("consumed twice");
        assertThatThrownBy(() -> parse("{\"queues\":{\"producers\":[{\"binding\":\"Q\",\"queue\":\"q\",\"delivery_delay\":86401}]}}"))
                .hasMessageContaining("delivery_delay must be a whole number of seconds from 0 to 86400");
        assertThatThrownBy(() -> parse("{\"queues\":{\"producers\":[{\"binding\":\"Q\",\"queue\":\"q\",\"remote\":true}]}}"))
                .hasMessageContaining("key \"queues.producers[].remote\" is not supported");
        assertThatThrownBy(() -> parse("{\"queues\":{\"pull\":[]}}")).hasMessageContaining("key \"queues.pull\" is not supported");
        assertThatThrownBy(() -> parse("{\"queues\":{\"producers\":[{\"queue\":\"q\"}]}}"))
                .hasMessageContaining("\"binding\" must be a non-empty string");
    }
}
