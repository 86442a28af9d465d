package dev.cellgate.core.logic.assets;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Expected values: the Content-Type miniflare 4.20260730.0 served for a file of each name. */
class ContentTypesTest {
    @Test
    void typesAsWranglerAssignsThem() {
        assertThat(ContentTypes.of("/a/index.html")).isEqualTo("text/html; charset=utf-8");
        assertThat(ContentTypes.of("/app.js")).isEqualTo("text/javascript; charset=utf-8");
        assertThat(ContentTypes.of("/s.CSS")).isEqualTo("text/css; charset=utf-8");
        assertThat(ContentTypes.of("/d.json")).isEqualTo("application/json");
        assertThat(ContentTypes.of("/i.svg")).isEqualTo("image/svg+xml");
        assertThat(ContentTypes.of("/favicon.ico")).isEqualTo("image/vnd.microsoft.icon");
        assertThat(ContentTypes.of("/m.webmanifest")).isEqualTo("application/manifest+json");
        assertThat(ContentTypes.of("/f.woff2")).isEqualTo("font/woff2");
        assertThat(ContentTypes.of("/x.ts")).isEqualTo("video/mp2t");
        assertThat(ContentTypes.of("/noext")).isNull();
        assertThat(ContentTypes.of("/x.tsx")).isNull();
        assertThat(ContentTypes.of("/dir.d/noext")).isNull();
    }
}
