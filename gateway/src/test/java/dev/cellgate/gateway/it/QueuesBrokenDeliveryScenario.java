package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The negative control of {@link QueuesFleetIT} (run by .ci/qualify.sh): with
 * {@code CELLGATE_TEST_BROKEN_QUEUE=delete-before-handler} the queue's cell deletes a batch before
 * its handler has settled, and the same SIGKILL of the owner with a batch in flight must lose
 * messages. If this passed with every message delivered, QueuesFleetIT could not catch the bug.
 */
class QueuesBrokenDeliveryScenario {
    @TempDir
    Path dir;

    @Test
    void theBrokenVariantLosesMessages() throws Exception {
        QueuesFleetIT.Result r = QueuesFleetIT.run(dir, "queues-fleet-broken", Map.of("CELLGATE_TEST_BROKEN_QUEUE", "delete-before-handler"));
        assertThat(r.distinct()).as("the broken variant (a batch deleted before its handler settled) loses the batch the kill interrupted")
                .isLessThan(QueuesFleetIT.N);
    }
}
