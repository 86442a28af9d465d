package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.config.ConfigException;
import dev.cellgate.core.config.ConfigLoader;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code request.cf}: without {@code CELLD_CF_HEADERS} no request header reaches it (a client could
 * forge them) — checked on the real default and seen failing on
 * {@link RequestCf#TRUSTING_FOR_NEGATIVE_CONTROL}; with it, exactly the named fields, typed as
 * Cloudflare types them; a bad mapping stops the node with a message naming the variable.
 */
class RequestCfTest {
    static final List<Map.Entry<String, String>> FORGED = List.of(Map.entry("cf-ipcountry", "XX"), Map.entry("cf-ipcity", "Nowhere"),
            Map.entry("x-asn", "64500"), Map.entry("x-asn-bad", "AS1"));

    static boolean readsNoHeader(RequestCf cf) {
        JsonObject o = new JsonObject(cf.json("HTTP/1.1", null, null, FORGED));
        return o.fieldNames().equals(java.util.Set.of("httpProtocol"));
    }

    @Test
    void theDefaultTrustsNoHeader() {
        assertThat(readsNoHeader(RequestCf.NONE)).isTrue();
        assertThat(readsNoHeader(RequestCf.parse(null))).isTrue();
        assertThat(readsNoHeader(RequestCf.parse(""))).isTrue();
    }

    @Test
    void theNegativeControlIsCaught() {
        assertThat(readsNoHeader(RequestCf.TRUSTING_FOR_NEGATIVE_CONTROL)).isFalse();
    }

    @Test
    void namedFieldsAreReadAndTyped() {
        JsonObject o = new JsonObject(RequestCf.parse("country=cf-ipcountry, asn=X-ASN").json("HTTP/2", "TLSv1.3", "TLS_AES_128_GCM_SHA256", FORGED));
        assertThat(o.getMap()).containsExactlyInAnyOrderEntriesOf(Map.of("httpProtocol", "HTTP/2", "tlsVersion", "TLSv1.3",
                "tlsCipher", "TLS_AES_128_GCM_SHA256", "country", "XX", "asn", 64500));
        JsonObject bad = new JsonObject(RequestCf.parse("asn=x-asn-bad").json("HTTP/1.1", null, null, FORGED));
        assertThat(bad.containsKey("asn")).isFalse();
        assertThat(new JsonObject(RequestCf.parse("cloudflare").json("HTTP/1.1", null, null, FORGED)).getString("city")).isEqualTo("Nowhere");
    }

    @Test
    void aBadMappingIsFatalAndNamed() {
        assertThatThrownBy(() -> RequestCf.parse("planet=x-planet")).hasMessageContaining("unknown request.cf field 'planet'");
        assertThatThrownBy(() -> RequestCf.parse("country")).hasMessageContaining("needs a header name");
        assertThatThrownBy(() -> RequestCf.parse("country=a,country=b")).hasMessageContaining("mapped twice");
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of("CELLD_CF_HEADERS", "planet=x")).requestCf())
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("CELLD_CF_HEADERS='planet=x': unknown request.cf field");
    }
}
