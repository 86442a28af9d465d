package dev.cellgate.core.logic.assets;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Expected values are what node's {@code new URL(...).pathname}, encodeURIComponent and decodeURIComponent give. */
class UrlCodingTest {
    @Test
    void pathnameAsTheWhatwgParserGivesIt() {
        assertThat(UrlPaths.pathname("/a/../b")).isEqualTo("/b");
        assertThat(UrlPaths.pathname("/a/./b/.")).isEqualTo("/a/b/");
        assertThat(UrlPaths.pathname("/a/%2e%2E/b")).isEqualTo("/b");
        assertThat(UrlPaths.pathname("/../..")).isEqualTo("/");
        assertThat(UrlPaths.pathname("/a\\b")).isEqualTo("/a/b");
        assertThat(UrlPaths.pathname("/sp ace\"<>`{}")).isEqualTo("/sp%20ace%22%3C%3E%60%7B%7D");
        assertThat(UrlPaths.pathname("/é")).isEqualTo("/%C3%A9");
        assertThat(UrlPaths.pathname("/%7e")).isEqualTo("/%7e");
        assertThat(UrlPaths.pathname("")).isEqualTo("/");
    }

    @Test
    void uriComponentsAsJavaScript() {
        assertThat(UriComponents.encode("a b~*'()!/?#é😀")).isEqualTo("a%20b~*'()!%2F%3F%23%C3%A9%F0%9F%98%80");
        assertThat(UriComponents.encode("\uD800")).isNull();
        assertThat(UriComponents.decode("%C3%A9%20x")).isEqualTo("é x");
        assertThat(UriComponents.decode("%E9")).isNull();
        assertThat(UriComponents.decode("%zz")).isNull();
        assertThat(UriComponents.decode("%4")).isNull();
        assertThat(UriComponents.decodePath("/%7Efoo//bar/%E9")).isEqualTo("/~foo/bar/%E9");
        assertThat(UriComponents.encodePath("/~foo/a b/@x")).isEqualTo("/~foo/a%20b/%40x");
    }
}
