package dev.cellgate.core.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.assets.AssetEntry;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AssetManifestTest {
    private static final String A = "a".repeat(64);
    private static final String B = "b".repeat(64);

    @Test
    void roundTripsAndEncodesTheSameDirectoryToTheSameBytes() {
        Map<String, AssetEntry> one = new LinkedHashMap<>();
        one.put("/z.txt", new AssetEntry(A, 3, "text/plain; charset=utf-8"));
        one.put("/a/bin", new AssetEntry(B, 0, null));
        Map<String, AssetEntry> other = new LinkedHashMap<>();
        other.put("/a/bin", new AssetEntry(B, 0, null));
        other.put("/z.txt", new AssetEntry(A, 3, "text/plain; charset=utf-8"));
        AssetManifest m = new AssetManifest(one, "/a /b 301", "");
        assertThat(m.encode()).isEqualTo(new AssetManifest(other, "/a /b 301", null).encode());
        assertThat(AssetManifest.decode(m.encode())).isEqualTo(m);
        assertThat(m.get("/a/bin").contentType()).isNull();
    }

    @Test
    void aMalformedManifestIsRefused() {
        String bad = "{\"files\":{\"nope\":{\"sha256\":\"" + A + "\",\"size\":1}},\"redirects\":\"\",\"headers\":\"\"}";
        assertThatThrownBy(() -> AssetManifest.decode(bad.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(MalformedManifestException.class).hasMessageContaining("must start with /: nope");
        assertThatThrownBy(() -> AssetManifest.decode("{\"files\":{\"/x\":{\"sha256\":\"zz\",\"size\":1}}}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(MalformedManifestException.class).hasMessageContaining("64 lowercase hex digits");
    }
}
