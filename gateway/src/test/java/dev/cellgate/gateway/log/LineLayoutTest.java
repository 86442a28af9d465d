package dev.cellgate.gateway.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.event.KeyValuePair;

class LineLayoutTest {
    final LineLayout layout = new LineLayout();
    final ch.qos.logback.classic.Logger logger = new LoggerContext().getLogger("dev.cellgate.test");

    @BeforeEach
    void node() {
        LineLayout.nodeId("node-7");
    }

    @AfterEach
    void reset() {
        LineLayout.textMode(false);
        LineLayout.nodeId(null);
    }

    private LoggingEvent event(String message, Map<String, String> mdc, Object... kvs) {
        LoggingEvent e = new LoggingEvent("fqcn", logger, Level.INFO, message, null, null);
        e.setMDCPropertyMap(mdc);
        for (int i = 0; i < kvs.length; i += 2) {
            e.addKeyValuePair(new KeyValuePair((String) kvs[i], kvs[i + 1]));
        }
        return e;
    }

    @Test
    void aJsonLineCarriesNodeRequestIdAndScopeFromTheMdc() {
        String line = layout.doLayout(event("cell.activated", Map.of("request_id", "r-1", "scope", "Counter:ab"), "epoch", 3));
        assertThat(line).endsWith("}\n").doesNotContain("\n{");
        JsonObject j = new JsonObject(line);
        assertThat(j.getString("event")).isEqualTo("cell.activated");
        assertThat(j.getString("node")).isEqualTo("node-7");
        assertThat(j.getString("request_id")).isEqualTo("r-1");
        assertThat(j.getString("scope")).isEqualTo("Counter:ab");
        assertThat(j.getLong("epoch")).isEqualTo(3);
    }

    @Test
    void aKeyValueWinsOverTheMdcEntryOfTheSameNameAndTheKeyAppearsOnce() {
        String line = layout.doLayout(event("js.console", Map.of("request_id", "from-mdc", "scope", "A:1"),
                "request_id", "from-kv", "message", "hi"));
        assertThat(line.split("\"request_id\"", -1)).as("one request_id key in %s", line).hasSize(2);
        JsonObject j = new JsonObject(line);
        assertThat(j.getString("request_id")).isEqualTo("from-kv");
        assertThat(j.getString("scope")).isEqualTo("A:1");
        assertThat(j.getString("message")).as("an event line has no message of its own: js.console's is kept").isEqualTo("hi");
    }

    /** Parses a line as a strict JSON parser does: a key that appears twice is an error, not "the last one wins". */
    static Map<String, Object> strictly(String line) throws Exception {
        com.fasterxml.jackson.core.JsonFactory f = com.fasterxml.jackson.core.JsonFactory.builder()
                .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        try (com.fasterxml.jackson.core.JsonParser p = f.createParser(line)) {
            assertThat(p.nextToken()).isEqualTo(com.fasterxml.jackson.core.JsonToken.START_OBJECT);
            while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                String k = p.currentName();
                p.nextToken();
                out.put(k, p.getText());
            }
        }
        return out;
    }

    /** The line JsInstance logs when a limit stops an event (issue 30: it carried two "event" keys). */
    @Test
    void theJsEventStoppedLineHasUniqueKeysAndKeepsBothValues() throws Exception {
        String line = layout.doLayout(event("js.event.stopped", Map.of("request_id", "r-9"),
                "instance", "Counter:ab", "event", "fetch", "request_id", "r-9", "reason", "CPU time limit exceeded"));
        Map<String, Object> j = strictly(line);
        assertThat(j.get("event")).isEqualTo("js.event.stopped");
        assertThat(j.values()).as("the event's own \"event\" value survives under another key").contains("fetch");
        assertThat(j.get("reason")).isEqualTo("CPU time limit exceeded");
    }

    @Test
    void aKeyValueNamedLikeAFieldOfTheLineNeverRepeatsAKey() throws Exception {
        String line = layout.doLayout(event("dead_node_gc.renewed", Map.of(), "node", "gone-1", "ts", 5, "level", "x", "logger", "y",
                "message", "m", "ms", 1, "ms", 2, "ms", 3));
        Map<String, Object> j = strictly(line);
        assertThat(j).containsEntry("ms", "1").containsEntry("kv_ms", "2").containsEntry("kv_ms_2", "3").containsEntry("message", "m");
        assertThat(j.get("node")).as("the line's node is this node").isEqualTo("node-7");
        assertThat(j.get("kv_node")).isEqualTo("gone-1");
        assertThat(j.get("kv_ts")).isEqualTo("5");
        assertThat(j.get("kv_logger")).isEqualTo("y");
    }

    @Test
    void libraryMessagesBecomeLogEventsWithEscapedText() {
        JsonObject j = new JsonObject(layout.doLayout(event("Something \"odd\"\nhappened", Map.of())));
        assertThat(j.getString("event")).isEqualTo("log");
        assertThat(j.getString("message")).isEqualTo("Something \"odd\"\nhappened");
        assertThat(j.getString("node")).isEqualTo("node-7");
    }

    @Test
    void textModeIsOneReadableLineWithNodeRequestIdAndScope() {
        LineLayout.textMode(true);
        String line = layout.doLayout(event("cell.released", Map.of("request_id", "r-2", "scope", "S:1"), "scope", "S:1", "ms", 12));
        assertThat(line).endsWith("\n").doesNotStartWith("{");
        assertThat(line.strip().lines()).hasSize(1);
        assertThat(line).contains(" INFO  cell.released node=node-7").contains("request_id=r-2").contains("ms=12");
        assertThat(line.split("scope=", -1)).as("scope once in %s", line).hasSize(2);
    }
}
