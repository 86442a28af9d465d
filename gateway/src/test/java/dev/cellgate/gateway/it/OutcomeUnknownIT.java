package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.gateway.faults.FaultPlan.Action;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30 item 5 on a real node and the S3 server: the ownership confirm after an upload gets no
 * answer (the fault proxy resets every HEAD of own.json), so the output gate fails after the
 * segment landed. The Worker must be told "outcome unknown" with {@code retryable: false}: the
 * write was in fact applied, as the next activation shows.
 */
class OutcomeUnknownIT {
    @TempDir
    Path dir;

    @Test
    void aGateThatFailsAfterTheSegmentLandedSaysOutcomeUnknown() throws Exception {
        try (ProxiedCounter c = new ProxiedCounter(dir, "outcome-unknown")) {
            NodeProcess n = c.start("n1", Map.of());
            assertThat(n.get(n.publicUrl("/gate")).body()).isEqualTo("1");

            c.proxy.plan().add("confirm gets no answer", call -> call.method().equals("HEAD") && call.isCellRecord("/own.json"),
                    1.0, Action.RESET);
            HttpResponse<String> failed = n.get(n.publicUrl("/gate"));
            c.proxy.plan().clear();

            JsonObject e = ProxiedCounter.caught(failed);
            assertThat(e).as("the Worker caught an error: " + failed.statusCode() + " " + failed.body()).isNotNull();
            assertThat(n.get(n.publicUrl("/gate?op=get")).body()).as("the write behind the failed gate was applied").isEqualTo("2");
            assertThat(e.getString("error")).contains("outcome unknown").contains("may have been applied");
            assertThat(e.getBoolean("retryable")).as(e.encode()).isFalse();
        }
    }
}
