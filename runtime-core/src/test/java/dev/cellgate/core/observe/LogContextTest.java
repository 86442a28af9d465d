package dev.cellgate.core.observe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class LogContextTest {
    @AfterEach
    void clear() {
        MDC.clear();
    }

    @Test
    void setsBothKeysAndRemovesThemAfterwards() {
        try (LogContext.Scope s = LogContext.enter("r1", "Counter:ab")) {
            assertThat(MDC.get("request_id")).isEqualTo("r1");
            assertThat(MDC.get("scope")).isEqualTo("Counter:ab");
        }
        assertThat(MDC.get("request_id")).isNull();
        assertThat(MDC.get("scope")).isNull();
    }

    @Test
    void anInnerScopeKeepsTheOuterRequestIdAndRestoresTheOuterScope() {
        try (LogContext.Scope outer = LogContext.enter("r1", "A:1")) {
            try (LogContext.Scope inner = LogContext.enter(null, "B:2")) {
                assertThat(MDC.get("request_id")).as("a null request id leaves the outer one").isEqualTo("r1");
                assertThat(MDC.get("scope")).isEqualTo("B:2");
            }
            assertThat(MDC.get("scope")).isEqualTo("A:1");
            try (LogContext.Scope inner = LogContext.enter("r2", null)) {
                assertThat(MDC.get("request_id")).isEqualTo("r2");
                assertThat(MDC.get("scope")).isEqualTo("A:1");
            }
            assertThat(MDC.get("request_id")).isEqualTo("r1");
        }
        assertThat(MDC.getCopyOfContextMap() == null || MDC.getCopyOfContextMap().isEmpty()).isTrue();
    }

    @Test
    void anEmptyRequestIdIsNotSet() {
        try (LogContext.Scope s = LogContext.enter("", null)) {
            assertThat(MDC.get("request_id")).isNull();
        }
    }

    @Test
    void runRestoresEvenWhenTheTaskThrows() {
        try {
            LogContext.run("r9", "C:3", () -> {
                throw new IllegalStateException("boom");
            });
        } catch (IllegalStateException expected) {
            // the point is what is left in the MDC
        }
        assertThat(MDC.get("request_id")).isNull();
        assertThat(MDC.get("scope")).isNull();
    }
}
