package dev.cellgate.js.graal.bindings;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pure decisions of a Workflow instance (bindings/workflow.js {@code RULES}: ids and step names,
 * durations, step configuration and its defaults, retry delays and backoff, step keys, status
 * transitions), evaluated in a bare GraalJS context: no cell, no storage, no clock. The engine
 * lives in JavaScript (the instance's cell runs the Worker's own code), so its rules do too
 * (docs/workflows.md, "Where the engine lives").
 */
class WorkflowRulesTest {
    private static Context context;
    private static Value rules;

    @BeforeAll
    static void load() throws IOException {
        String text;
        try (InputStream in = WorkflowRulesTest.class.getClassLoader().getResourceAsStream("cellgate/bindings/workflow.js")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        context = Context.newBuilder("js").build();
        Value factory = context.eval(Source.newBuilder("js", text, "workflow.js").build());
        Value internal = context.eval("js", "({ builtinClasses: {} })");
        factory.execute(context.eval("js", "({})"), internal);
        rules = internal.getMember("workflowRules");
    }

    @AfterAll
    static void close() {
        context.close();
    }

    private static Value call(String rule, Object... args) {
        return rules.getMember(rule).execute(args);
    }

    private static Value js(String expression) {
        return context.eval("js", expression);
    }

    @Test
    void instanceIds() {
        for (String ok : new String[] {"a", "_x", "a-b_c", "0", "_".repeat(100)}) {
            assertThat(call("validInstanceId", ok).asBoolean()).as(ok).isTrue();
        }
        for (String bad : new String[] {"", "-a", "a b", "a.b", "x".repeat(101), "é"}) {
            assertThat(call("validInstanceId", bad).asBoolean()).as(bad).isFalse();
        }
        assertThat(call("validInstanceId", 5).asBoolean()).isFalse();
    }

    @Test
    void stepNames() {
        assertThat(call("validStepName", "x".repeat(256)).asBoolean()).isTrue();
        assertThat(call("validStepName", "x".repeat(257)).asBoolean()).isFalse();
        assertThat(call("validStepName", "tab\there").asBoolean()).isFalse();
        assertThat(call("validStepName", "spaces and ünïcode are fine").asBoolean()).isTrue();
    }

    @Test
    void durations() {
        assertThat(call("durationMs", 1500).asDouble()).isEqualTo(1500);
        assertThat(call("durationMs", "10").asDouble()).isEqualTo(10);
        assertThat(call("durationMs", "5 ms").asDouble()).isEqualTo(5);
        assertThat(call("durationMs", "1 second").asDouble()).isEqualTo(1000);
        assertThat(call("durationMs", "2 minutes").asDouble()).isEqualTo(120_000);
        assertThat(call("durationMs", "1 hour").asDouble()).isEqualTo(3_600_000);
        assertThat(call("durationMs", "3 days").asDouble()).isEqualTo(3 * 86_400_000.0);
        assertThat(call("durationMs", "1 week").asDouble()).isEqualTo(604_800_000.0);
        assertThat(call("durationMs", "0.5 seconds").asDouble()).isEqualTo(500);
        for (String bad : new String[] {"soon", "2 fortnights", "", "seconds"}) {
            assertThat(call("durationMs", bad).asDouble()).as(bad).isNaN();
        }
    }

    @Test
    void stepConfigurationAndItsDefaults() {
        Value defaults = call("stepConfig", js("({})"));
        assertThat(js("JSON.stringify").execute(defaults).asString())
                .isEqualTo("{\"retries\":{\"limit\":5,\"delay\":1000,\"backoff\":\"exponential\"},\"timeout\":\"10 minutes\"}");
        Value merged = call("stepConfig", js("({ retries: { limit: 1, delay: '5 seconds', backoff: 'linear' }, timeout: 50 })"));
        assertThat(js("JSON.stringify").execute(merged).asString())
                .isEqualTo("{\"retries\":{\"limit\":1,\"delay\":\"5 seconds\",\"backoff\":\"linear\"},\"timeout\":50}");
        assertThat(call("stepConfig", js("({ retries: { limit: 0, delay: () => 1 } })")).isNull()).isFalse();
        // retries needs both limit and delay; limit >= 0; a known backoff; a positive timeout; no other key
        for (String bad : new String[] {"({ retries: { limit: 1 } })", "({ retries: { delay: 1 } })", "({ retries: { limit: -1, delay: 0 } })",
            "({ retries: { limit: 1, delay: 0, backoff: 'random' } })", "({ retries: { limit: 1, delay: 'soon' } })",
            "({ retries: { limit: 1, delay: 0, jitter: true } })", "({ timeout: 0 })", "({ timeout: 'never' })", "({ nope: 1 })",
            "null", "([])", "({ sensitive: 'all' })"}) {
            assertThat(call("stepConfig", js(bad)).isNull()).as(bad).isTrue();
        }
    }

    @Test
    void retriesAndTheirDelays() {
        Value exponential = call("stepConfig", js("({ retries: { limit: 3, delay: 1000, backoff: 'exponential' } })"));
        assertThat(call("retryDelayMs", exponential, 1, 1000).asDouble()).isEqualTo(1000);
        assertThat(call("retryDelayMs", exponential, 2, 1000).asDouble()).isEqualTo(2000);
        assertThat(call("retryDelayMs", exponential, 3, "2 seconds").asDouble()).isEqualTo(8000);
        Value linear = call("stepConfig", js("({ retries: { limit: 3, delay: 10, backoff: 'linear' } })"));
        assertThat(call("retryDelayMs", linear, 3, 10).asDouble()).isEqualTo(30);
        Value constant = call("stepConfig", js("({ retries: { limit: 3, delay: 10, backoff: 'constant' } })"));
        assertThat(call("retryDelayMs", constant, 3, 10).asDouble()).isEqualTo(10);
        assertThat(call("retryDelayMs", constant, 1, "later").asDouble()).isNaN();
        assertThat(call("retryDelayMs", constant, 1, -5).asDouble()).isNaN();
        // limit retries after the first attempt: limit 3 allows attempts 1..4
        assertThat(call("willRetry", exponential, 3).asBoolean()).isTrue();
        assertThat(call("willRetry", exponential, 4).asBoolean()).isFalse();
        assertThat(call("willRetry", call("stepConfig", js("({ retries: { limit: 0, delay: 0 } })")), 1).asBoolean()).isFalse();
    }

    @Test
    void stepKeysTellKindsAndCallsApart() {
        assertThat(call("stepKey", "do", "a", 1).asString()).isNotEqualTo(call("stepKey", "do", "a", 2).asString());
        assertThat(call("stepKey", "do", "a", 1).asString()).isNotEqualTo(call("stepKey", "sleep", "a", 1).asString());
        // a name that looks like a count cannot collide with another call's key
        assertThat(call("stepKey", "do", "1:a", 1).asString()).isNotEqualTo(call("stepKey", "do", "a", 11).asString());
    }

    @Test
    void statusTransitions() {
        assertThat(call("afterPause", "running", true).asString()).isEqualTo("waitingForPause");
        assertThat(call("afterPause", "running", false).asString()).isEqualTo("paused");
        assertThat(call("afterPause", "waiting", false).asString()).isEqualTo("paused");
        for (String s : new String[] {"queued", "complete", "errored", "terminated", "paused", "waitingForPause"}) {
            assertThat(call("afterPause", s, false).asString()).as(s).isEqualTo(s);
        }
        assertThat(call("afterResume", "paused").asString()).isEqualTo("queued");
        assertThat(call("afterResume", "waitingForPause").asString()).isEqualTo("running");
        assertThat(call("afterResume", "complete").asString()).isEqualTo("complete");
        for (String s : new String[] {"complete", "errored", "terminated"}) {
            assertThat(call("afterTerminate", s).isNull()).as(s).isTrue();
        }
        for (String s : new String[] {"queued", "running", "waiting", "paused", "waitingForPause"}) {
            assertThat(call("afterTerminate", s).asString()).as(s).isEqualTo("terminated");
        }
        assertThat(call("runnable", "waiting").asBoolean()).isTrue();
        assertThat(call("runnable", "paused").asBoolean()).isFalse();
        assertThat(call("runnable", "complete").asBoolean()).isFalse();
        Value waiting = call("afterSuspend", "running", 5000, false);
        assertThat(waiting.getMember("status").asString()).isEqualTo("waiting");
        assertThat(waiting.getMember("alarmAt").asLong()).isEqualTo(5000);
        assertThat(call("afterSuspend", "waitingForPause", 5000, false).getMember("status").asString()).isEqualTo("paused");
        assertThat(call("afterSuspend", "running", js("Infinity"), true).getMember("alarmAt").isNull()).isTrue();
        assertThat(call("shifted", 1000, 250).asLong()).isEqualTo(1250);
        assertThat(js("JSON.stringify").execute(rules.getMember("STATUSES")).asString())
                .isEqualTo("[\"queued\",\"running\",\"paused\",\"errored\",\"terminated\",\"complete\",\"waiting\",\"waitingForPause\",\"unknown\"]");
    }
}
