package dev.cellgate.js.graal.bindings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.assets.AssetObjects;
import dev.cellgate.core.assets.BlobCache;
import dev.cellgate.core.bindings.AssetsProvider;
import dev.cellgate.core.deploy.AssetManifest;
import dev.cellgate.core.deploy.bindings.AssetsConfig;
import dev.cellgate.core.logic.assets.AssetEntry;
import dev.cellgate.core.spi.js.BindingRegistry;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.store.file.FileBucketStore;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** env.ASSETS.fetch on the real engine, served from a real (file) bucket. */
class AssetsBindingTest {
    @TempDir
    Path tmp;

    private AssetsConfig store(FileBucketStore bucket) {
        Map<String, AssetEntry> entries = new TreeMap<>();
        Map.of("/index.html", "home", "/app.js", "let x = 1;")
                .forEach((path, text) -> entries.put(path, AssetObjects.putFile(bucket, path, text.getBytes(StandardCharsets.UTF_8))));
        String digest = AssetObjects.putManifest(bucket, new AssetManifest(entries, "/old /app.js 301", ""));
        return new AssetsConfig("auto-trailing-slash", "single-page-application", true, List.of(), digest);
    }

    private static ScriptBundle bundle(String src, AssetsConfig cfg) {
        return new ScriptBundle("d-assets", "assets", "index.js", Map.of("index.js", src), Map.of(), Map.of(), "2025-04-01", List.of())
                .withBindings(List.of(new EnvBinding("ASSETS", "assets", cfg.toJson())));
    }

    @Test
    void fetchAnswersAsTheAssetsDoFromTheWorker() throws Exception {
        FileBucketStore bucket = new FileBucketStore("file://" + tmp, tmp, false);
        AssetsConfig cfg = store(bucket);
        String src = """
                export default { async fetch(req, env) {
                  const out = [];
                  for (const p of ['/app.js', '/spa/route', '/old', '/index.html']) {
                    const r = await env.ASSETS.fetch(new Request('https://example.com' + p + '?q=1'));
                    out.push(p + ' ' + r.status + ' ' + (r.headers.get('content-type') || r.headers.get('location')) + ' ' + await r.text());
                  }
                  const first = await env.ASSETS.fetch('https://example.com/app.js');
                  const again = await env.ASSETS.fetch('https://example.com/app.js', { headers: { 'If-None-Match': first.headers.get('etag') } });
                  out.push('revalidated ' + again.status + ' ' + (await again.text()).length);
                  const head = await env.ASSETS.fetch('https://example.com/app.js', { method: 'HEAD' });
                  out.push('head ' + head.status + ' ' + (await head.text()).length);
                  return new Response(out.join('\\n'));
                } };
                """;
        try (TestEngine e = new TestEngine(BindingRegistry.of(new AssetsProvider(bucket, new BlobCache(1 << 20))));
             TestWorker w = e.worker(bundle(src, cfg))) {
            assertThat(w.text("http://x/").split("\n")).containsExactly(
                    "/app.js 200 text/javascript; charset=utf-8 let x = 1;",
                    "/spa/route 200 text/html; charset=utf-8 home",
                    "/old 301 /app.js?q=1 ",
                    "/index.html 307 /?q=1 ",
                    "revalidated 304 0",
                    "head 200 0");
        }
    }

    @Test
    void aBindingWithoutTheAssetsSettingsIsRefusedAtLoadByName() {
        try (TestEngine e = new TestEngine(BindingRegistry.of(new AssetsProvider(null, new BlobCache(1))))) {
            ScriptBundle b = new ScriptBundle("d", "a", "index.js", Map.of("index.js", "export default {};"), Map.of(), Map.of(),
                    "2025-04-01", List.of()).withBindings(List.of(new EnvBinding("ASSETS", "assets", null)));
            assertThatThrownBy(() -> e.load(b)).hasMessageContaining("binding ASSETS (assets)").hasMessageContaining("html_handling");
        }
    }
}
