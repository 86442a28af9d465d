package dev.cellgate.core.logic.assets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tables of Cloudflare's "HTML handling" and "not_found_handling" pages, row by row. */
class HtmlHandlingTest {
    @TempDir
    Path tmp;

    private SiteFixture docsSite() {
        return new SiteFixture(tmp).file("/file.html", "f").file("/folder/index.html", "d");
    }

    private String answer(String html, String nf, SiteFixture site, String path) {
        AssetResponse r = new AssetRouter(new HtmlHandling(html, nf, site)).route(AssetRequest.get(path));
        return r.status() + " " + (r.status() == 307 ? r.header("Location") : r.file());
    }

    @Test
    void autoTrailingSlashAsDocumented() {
        SiteFixture s = docsSite();
        assertThat(answer("auto-trailing-slash", "none", s, "/file")).isEqualTo("200 /file.html");
        assertThat(answer("auto-trailing-slash", "none", s, "/file.html")).isEqualTo("307 /file");
        assertThat(answer("auto-trailing-slash", "none", s, "/file/")).isEqualTo("307 /file");
        assertThat(answer("auto-trailing-slash", "none", s, "/file/index")).isEqualTo("307 /file");
        assertThat(answer("auto-trailing-slash", "none", s, "/file/index.html")).isEqualTo("307 /file");
        assertThat(answer("auto-trailing-slash", "none", s, "/folder")).isEqualTo("307 /folder/");
        assertThat(answer("auto-trailing-slash", "none", s, "/folder.html")).isEqualTo("307 /folder/");
        assertThat(answer("auto-trailing-slash", "none", s, "/folder/")).isEqualTo("200 /folder/index.html");
        assertThat(answer("auto-trailing-slash", "none", s, "/folder/index")).isEqualTo("307 /folder/");
        assertThat(answer("auto-trailing-slash", "none", s, "/folder/index.html")).isEqualTo("307 /folder/");
    }

    @Test
    void forceTrailingSlashAsDocumented() {
        SiteFixture s = docsSite();
        assertThat(answer("force-trailing-slash", "none", s, "/file")).isEqualTo("307 /file/");
        assertThat(answer("force-trailing-slash", "none", s, "/file.html")).isEqualTo("307 /file/");
        assertThat(answer("force-trailing-slash", "none", s, "/file/")).isEqualTo("200 /file.html");
        assertThat(answer("force-trailing-slash", "none", s, "/file/index")).isEqualTo("307 /file/");
        assertThat(answer("force-trailing-slash", "none", s, "/file/index.html")).isEqualTo("307 /file/");
        assertThat(answer("force-trailing-slash", "none", s, "/folder")).isEqualTo("307 /folder/");
        assertThat(answer("force-trailing-slash", "none", s, "/folder/")).isEqualTo("200 /folder/index.html");
        assertThat(answer("force-trailing-slash", "none", s, "/folder/index.html")).isEqualTo("307 /folder/");
    }

    @Test
    void dropTrailingSlashAsDocumented() {
        SiteFixture s = docsSite();
        assertThat(answer("drop-trailing-slash", "none", s, "/file")).isEqualTo("200 /file.html");
        assertThat(answer("drop-trailing-slash", "none", s, "/file.html")).isEqualTo("307 /file");
        assertThat(answer("drop-trailing-slash", "none", s, "/file/")).isEqualTo("307 /file");
        assertThat(answer("drop-trailing-slash", "none", s, "/folder")).isEqualTo("200 /folder/index.html");
        assertThat(answer("drop-trailing-slash", "none", s, "/folder/")).isEqualTo("307 /folder");
        assertThat(answer("drop-trailing-slash", "none", s, "/folder/index.html")).isEqualTo("307 /folder");
    }

    @Test
    void noneServesExactPathsOnly() {
        SiteFixture s = docsSite();
        assertThat(answer("none", "none", s, "/file")).isEqualTo("404 null");
        assertThat(answer("none", "none", s, "/file.html")).isEqualTo("200 /file.html");
        assertThat(answer("none", "none", s, "/folder/")).isEqualTo("404 null");
        assertThat(answer("none", "none", s, "/folder/index.html")).isEqualTo("200 /folder/index.html");
    }

    @Test
    void notFoundHandlingServesTheNearest404PageOrTheSpaIndex() {
        SiteFixture s = docsSite().file("/404.html", "nf").file("/folder/404.html", "folder nf").file("/index.html", "spa");
        assertThat(answer("auto-trailing-slash", "404-page", s, "/nope")).isEqualTo("404 /404.html");
        assertThat(answer("auto-trailing-slash", "404-page", s, "/folder/deep/nope")).isEqualTo("404 /folder/404.html");
        assertThat(answer("auto-trailing-slash", "single-page-application", s, "/app/route")).isEqualTo("200 /index.html");
        assertThat(answer("auto-trailing-slash", "none", s, "/nope")).isEqualTo("404 null");
    }

    @Test
    void unknownHtmlHandlingIsRefusedByName() {
        assertThatThrownBy(() -> new HtmlHandling("auto", "none", p -> null).resolve("/"))
                .hasMessageContaining("html_handling auto");
    }
}
