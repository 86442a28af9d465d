package dev.cellgate.core.logic.assets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The run_worker_first examples of Cloudflare's routing docs. */
class WorkerFirstTest {
    @Test
    void patternsWithNegativesThatAlwaysWin() {
        WorkerFirst w = new WorkerFirst(false, List.of("/*", "!/_astro/*", "!/*.js", "/api/*", "!/api/docs/*"));
        assertThat(w.workerFirst("/")).isTrue();
        assertThat(w.workerFirst("/page")).isTrue();
        assertThat(w.workerFirst("/_astro/x.css")).isFalse();
        assertThat(w.workerFirst("/deep/app.js")).isFalse();
        assertThat(w.workerFirst("/api/docs/a")).isFalse();
        WorkerFirst api = new WorkerFirst(false, List.of("/api/*"));
        assertThat(api.workerFirst("/api/users")).isTrue();
        assertThat(api.workerFirst("/api")).isFalse();
        assertThat(api.workerFirst("/index.html")).isFalse();
    }

    @Test
    void trueAndFalse() {
        assertThat(new WorkerFirst(true, List.of()).workerFirst("/x")).isTrue();
        assertThat(new WorkerFirst(false, List.of()).workerFirst("/x")).isFalse();
        assertThatThrownBy(() -> new WorkerFirst(false, List.of("api/*"))).hasMessageContaining("must begin with / or !/");
    }
}
