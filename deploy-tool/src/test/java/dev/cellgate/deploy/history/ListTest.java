package dev.cellgate.deploy.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.ExitCodes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListTest {
    @TempDir
    Path tmp;

    String bucket() {
        return "file://" + tmp.resolve("bucket");
    }

    List<String> pushAll(int n) throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Path b = tmp.resolve("w" + i + ".js");
            Files.writeString(b, "export default { fetch() { return new Response('" + i + "'); } };\n");
            ToolRun r = ToolRun.run("push", b.toString(), "--name", "w" + i, "--bucket", bucket(), "--json");
            assertThat(r.code()).as(r.toString()).isZero();
            ids.add(r.json().getString("deployment"));
        }
        return ids;
    }

    @Test
    void anEmptyBucketListsNothing() {
        ToolRun r = ToolRun.run("list", "--bucket", bucket());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("no deployments in " + bucket());
        JsonObject j = ToolRun.run("list", "--bucket", bucket(), "--json").json();
        assertThat(j.getInteger("total")).isZero();
        assertThat(j.getString("current")).isNull();
    }

    @Test
    void newestFirstWithTheCurrentMarkedAndALimit() throws Exception {
        List<String> ids = pushAll(3);
        ToolRun r = ToolRun.run("list", "--bucket", bucket());
        assertThat(r.code()).isZero();
        String[] lines = r.out().split("\n");
        assertThat(lines[1]).startsWith("* " + ids.get(2)).contains("w2");
        assertThat(lines[2]).startsWith("  " + ids.get(1));
        assertThat(lines[3]).startsWith("  " + ids.get(0));
        JsonObject j = ToolRun.run("list", "--limit", "2", "--bucket", bucket(), "--json").json();
        JsonArray rows = j.getJsonArray("deployments");
        assertThat(rows).hasSize(2);
        assertThat(j.getInteger("total")).isEqualTo(3);
        assertThat(j.getString("current")).isEqualTo(ids.get(2));
        assertThat(j.getString("previous")).isEqualTo(ids.get(1));
        assertThat(rows.getJsonObject(0).getMap()).containsEntry("id", ids.get(2)).containsEntry("current", true)
                .containsEntry("name", "w2").containsEntry("modules", 1);
        assertThat(rows.getJsonObject(1).getBoolean("current")).isFalse();
        assertThat(ToolRun.run("list", "--limit", "2", "--bucket", bucket()).out()).contains("(1 older; --all shows every one)");
        assertThat(ToolRun.run("list", "--all", "--bucket", bucket(), "--json").json().getJsonArray("deployments")).hasSize(3);
    }

    @Test
    void aMalformedManifestIsListedWithItsErrorNotSkipped() throws Exception {
        List<String> ids = pushAll(2);
        try (BucketStore s = new BucketStores(null).open(bucket(), StoreOptions.none())) {
            s.put(Keys.manifest(ids.get(0)), "{not json".getBytes(StandardCharsets.UTF_8)).join();
        }
        ToolRun r = ToolRun.run("list", "--bucket", bucket(), "--json");
        assertThat(r.code()).isZero();
        JsonObject broken = r.json().getJsonArray("deployments").getJsonObject(1);
        assertThat(broken.getString("id")).isEqualTo(ids.get(0));
        assertThat(broken.getString("error")).contains("manifest is not a JSON object");
        assertThat(ToolRun.run("list", "--bucket", bucket()).out()).containsPattern(ids.get(0) + "\\s+UNREADABLE: manifest is not a JSON object");
    }

    @Test
    void deploymentsWithinOneSecondAreOrderedByCreationNotByTheirRandomSuffix() {
        // Ids carry the second only; here the suffixes sort against the creation order on purpose.
        String[] ids = {"d-20260101T000000Z-ffffff", "d-20260101T000000Z-888888", "d-20260101T000000Z-000000"};
        try (BucketStore s = new BucketStores(null).open(bucket(), StoreOptions.none())) {
            dev.cellgate.core.deploy.DeploymentStore d = new dev.cellgate.core.deploy.DeploymentStore(s);
            for (int i = 0; i < ids.length; i++) {
                d.putManifest(new dev.cellgate.core.deploy.Manifest(ids[i], "w" + i, 1_767_225_600_000L + i, "index.js", List.of(),
                        java.util.Map.of(), java.util.Map.of(), null, "2025-01-01", List.of(), null, List.of())).join();
            }
        }
        JsonArray all = ToolRun.run("list", "--bucket", bucket(), "--json").json().getJsonArray("deployments");
        assertThat(all.stream().map(r -> ((JsonObject) r).getString("id")).toList()).containsExactly(ids[2], ids[1], ids[0]);
        JsonArray two = ToolRun.run("list", "--limit", "1", "--bucket", bucket(), "--json").json().getJsonArray("deployments");
        assertThat(two.getJsonObject(0).getString("id")).as("the newest, though its suffix sorts first").isEqualTo(ids[2]);
    }

    @Test
    void badLimitsAreUsageErrors() {
        assertThat(ToolRun.run("list", "--limit", "0", "--bucket", bucket()).code()).isEqualTo(ExitCodes.USAGE);
        assertThat(ToolRun.run("list", "--limit", "x", "--bucket", bucket()).code()).isEqualTo(ExitCodes.USAGE);
        assertThat(ToolRun.run("list", "--all", "--limit", "3", "--bucket", bucket()).code()).isEqualTo(ExitCodes.USAGE);
        assertThat(ToolRun.run("list", "extra", "--bucket", bucket()).code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void anUnknownBucketSchemeIsAUsageError() {
        ToolRun r = ToolRun.run("list", "--bucket", "ftp://nowhere", "--json");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.json().getString("error")).contains("no bucket store plugin for scheme 'ftp'");
    }
}
