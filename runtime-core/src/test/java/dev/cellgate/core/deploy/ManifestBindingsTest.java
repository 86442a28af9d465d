package dev.cellgate.core.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.deploy.bindings.AssetsBinding;
import dev.cellgate.core.deploy.bindings.AssetsConfig;
import dev.cellgate.core.deploy.bindings.Binding;
import dev.cellgate.core.deploy.bindings.Bindings;
import dev.cellgate.core.deploy.bindings.D1DatabaseBinding;
import dev.cellgate.core.deploy.bindings.DurableObjectNamespaceBinding;
import dev.cellgate.core.deploy.bindings.KvNamespaceBinding;
import dev.cellgate.core.deploy.bindings.PlainTextBinding;
import dev.cellgate.core.deploy.bindings.QueueConsumer;
import dev.cellgate.core.deploy.bindings.QueueProducerBinding;
import dev.cellgate.core.deploy.bindings.R2BucketBinding;
import dev.cellgate.core.deploy.bindings.SecretTextBinding;
import dev.cellgate.core.deploy.bindings.ServiceBinding;
import dev.cellgate.core.deploy.bindings.Triggers;
import dev.cellgate.core.deploy.bindings.WorkflowBinding;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.ScriptLoadException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The manifest's binding schema: every type round-trips, old manifests still read, bad ones are refused by name. */
class ManifestBindingsTest {
    static final String V1 = "v-20261202T030000000Z-0a1b2c3d";
    static final List<Binding> EVERY_TYPE = List.of(
            new PlainTextBinding("GREETING", "hi"),
            new SecretTextBinding("API_KEY", V1),
            new DurableObjectNamespaceBinding("ROOMS", "Room"),
            new KvNamespaceBinding("CACHE", "ns-1"),
            new R2BucketBinding("FILES", "files", "eu"),
            new D1DatabaseBinding("DB", "main", "0000-1111"),
            new QueueProducerBinding("JOBS", "jobs", 5L),
            new WorkflowBinding("FLOW", "flow", "Flow"),
            new ServiceBinding("SELF", "app", "Api", new JsonObject().put("tier", 1)),
            new AssetsBinding("ASSETS"));

    private static Manifest manifest(List<Binding> bindings, WorkerSettings settings) {
        return new Manifest("d1", "app", 1, "index.js", List.of(new Manifest.BlobRef("index.js", "aa", 3)), bindings, null,
                "2025-01-01", List.of(), new Triggers(List.of("*/5 * * * *")), List.of(), settings);
    }

    private static JsonObject json(Manifest m) {
        return new JsonObject(new String(m.encode(), StandardCharsets.UTF_8));
    }

    @Test
    void everyBindingTypeAndTheWorkerSettingsRoundTrip() {
        WorkerSettings settings = new WorkerSettings(new AssetsConfig("auto-trailing-slash", "single-page-application", false,
                List.of("/api/*"), "0".repeat(64)), List.of(new QueueConsumer("jobs", 10L, 5L, 3L, "dlq", null, null)), 50L, "staging",
                new JsonObject().put("routes", new JsonArray().add("example.com/*")));
        Manifest m = manifest(EVERY_TYPE, settings);
        Manifest back = Manifest.decode(m.encode());
        assertThat(back.bindings()).isEqualTo(EVERY_TYPE);
        assertThat(back.settings().assets()).isEqualTo(settings.assets());
        assertThat(back.settings().queueConsumers()).isEqualTo(settings.queueConsumers());
        assertThat(back.settings().cpuMs()).isEqualTo(50L);
        assertThat(back.settings().environment()).isEqualTo("staging");
        assertThat(back.settings().hosting()).isEqualTo(settings.hosting());
        assertThat(back.triggers().crons()).containsExactly("*/5 * * * *");
        assertThat(Bindings.TYPES).hasSize(EVERY_TYPE.size());
        assertThat(json(m).getJsonArray("bindings").getJsonObject(3).encode())
                .isEqualTo("{\"type\":\"kv_namespace\",\"name\":\"CACHE\",\"namespace_id\":\"ns-1\"}");
    }

    @Test
    void theOldMapsAreStillWrittenForOlderNodes() {
        JsonObject o = json(manifest(EVERY_TYPE, WorkerSettings.NONE));
        assertThat(o.getJsonObject("vars").getMap()).containsExactly(Map.entry("GREETING", "hi"));
        assertThat(o.getJsonObject("durable_objects").getMap()).containsExactly(Map.entry("ROOMS", "Room"));
        // a secret's value is never in the manifest, only its name and the version of its value
        assertThat(o.getJsonArray("bindings").getJsonObject(1).encode())
                .isEqualTo("{\"type\":\"secret_text\",\"name\":\"API_KEY\",\"version\":\"" + V1 + "\"}");
    }

    @Test
    void aManifestFromBeforeBindingsDecodesIntoTheSameBindings() {
        String old = "{\"id\":\"d0\",\"name\":\"w\",\"created_ms\":1,\"main\":\"index.js\","
                + "\"modules\":[{\"path\":\"index.js\",\"sha256\":\"aa\",\"size\":3}],\"vars\":{\"B\":\"2\",\"A\":\"1\"},"
                + "\"durable_objects\":{\"NS\":\"Counter\"},\"migrations\":[],\"compatibility_date\":\"2025-01-01\","
                + "\"compatibility_flags\":[],\"triggers\":{},\"plugins\":[]}";
        Manifest m = Manifest.decode(old.getBytes(StandardCharsets.UTF_8));
        assertThat(m.bindings()).containsExactly(new PlainTextBinding("A", "1"), new PlainTextBinding("B", "2"),
                new DurableObjectNamespaceBinding("NS", "Counter"));
        assertThat(m.vars()).containsEntry("A", "1").containsEntry("B", "2");
        assertThat(m.durableObjects()).containsExactly(Map.entry("NS", "Counter"));
        assertThat(m.triggers()).isEqualTo(Triggers.NONE);
        assertThat(m.settings()).isEqualTo(WorkerSettings.NONE);
    }

    @Test
    void anUnknownTypeOrFieldIsRefusedByName() {
        JsonObject o = json(manifest(List.of(), WorkerSettings.NONE));
        o.put("bindings", new JsonArray().add(new JsonObject().put("type", "vectorize").put("name", "V")));
        assertThatThrownBy(() -> Manifest.decode(o.encode().getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(MalformedManifestException.class)
                .hasMessageContaining("binding V has type 'vectorize', which this version of cellgate does not know");
        o.put("bindings", new JsonArray().add(new JsonObject().put("type", "kv_namespace").put("name", "K").put("namespace_id", "n")
                .put("preview_id", "p")));
        assertThatThrownBy(() -> Manifest.decode(o.encode().getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("binding K (kv_namespace): unknown field 'preview_id'");
        o.put("bindings", new JsonArray().add(new JsonObject().put("type", "r2_bucket").put("name", "R")));
        assertThatThrownBy(() -> Manifest.decode(o.encode().getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("binding R (r2_bucket): field 'bucket_name' is required");
        o.put("bindings", new JsonArray().add(new JsonObject().put("type", "secret_text").put("name", "S").put("version", V1))
                .add(new JsonObject().put("type", "plain_text").put("name", "S").put("text", "x")));
        assertThatThrownBy(() -> Manifest.decode(o.encode().getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("binding name S is used twice");
    }

    @Test
    void theBundleGivesVarsAndNamespacesToTheEngineAndEveryOtherBindingAsAnEnvBinding() throws Exception {
        Deployment d = new Deployment(manifest(EVERY_TYPE, WorkerSettings.NONE), Map.of("index.js", "x".getBytes(StandardCharsets.UTF_8)));
        ScriptBundle b = d.toBundle(Map.of("GREETING", "over", "EXTRA", "e"), Map.of("API_KEY", "k3y"));
        assertThat(b.vars()).containsExactlyInAnyOrderEntriesOf(Map.of("GREETING", "over", "EXTRA", "e"));
        assertThat(b.durableObjects()).containsExactly(Map.entry("ROOMS", "Room"));
        assertThat(b.bindings()).extracting(EnvBinding::type).containsExactly("secret_text", "kv_namespace", "r2_bucket", "d1",
                "queue", "workflow", "service", "assets", "queues"); // queues: the hidden binding of a deployment with queues (docs/queues.md)
        assertThat(b.bindings().get(0).sensitive()).isEqualTo("k3y");
        assertThat(b.bindings().get(0).toString()).doesNotContain("k3y").contains("value withheld");
        assertThat(b.bindings().get(1).settings().getString("namespace_id")).isEqualTo("ns-1");
    }

    @Test
    void aSecretWithoutItsValueRefusesTheLoadNamingIt() {
        Deployment d = new Deployment(manifest(List.of(new SecretTextBinding("API_KEY", V1)), WorkerSettings.NONE),
                Map.of("index.js", "x".getBytes(StandardCharsets.UTF_8)));
        assertThatThrownBy(() -> d.toBundle(Map.of(), Map.of())).isInstanceOf(ScriptLoadException.class)
                .hasMessageContaining("needs the secret API_KEY (version " + V1 + "), which is not in the bucket");
    }
}
