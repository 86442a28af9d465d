package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30 item 4 on real nodes: a counter at 3 whose lineage pins are deleted while its segments
 * stay. The next activation must answer an error (5xx) and log the scope, never a counter at 1;
 * the data stays in the bucket and the cell stays released, on a directory bucket and on the S3
 * server.
 */
class MissingPinIT {
    @TempDir
    Path dir;

    @Test
    void aCellWhosePinsAreGoneIsRefusedOnAFileBucket() throws Exception {
        try (Fleet f = Fleet.onFileBucket(dir, Map.of())) {
            refusedWithoutPins(f);
        }
    }

    @Test
    void aCellWhosePinsAreGoneIsRefusedOnS3() throws Exception {
        S3Env s3 = S3Env.require();
        try (Fleet f = Fleet.onBucket(dir, s3.freshUrl("missing-pin"), Map.of())) {
            refusedWithoutPins(f);
        }
    }

    private static void refusedWithoutPins(Fleet f) throws Exception {
        f.deployCounter();
        NodeProcess first = f.start("n1");
        for (int i = 1; i <= 3; i++) {
            assertThat(first.get(first.publicUrl("/c/pinned")).body()).isEqualTo(String.valueOf(i));
        }
        first.sigterm(); // a graceful stop releases the cell: its last write is durable
        assertThat(first.waitForExit(Duration.ofSeconds(60))).isZero();

        String scope;
        List<String> data;
        try (BucketStore b = f.openBucket()) {
            scope = listAll(b, "cells/").stream().filter(k -> k.endsWith("/own.json")).findFirst().orElseThrow()
                    .split("/")[1];
            for (String k : listAll(b, "cells/" + scope + "/wal/")) {
                if (k.endsWith("/base.json")) {
                    b.delete(k).join();
                }
            }
            data = listAll(b, "cells/" + scope + "/wal/");
        }
        assertThat(data).as("the segments behind the counter").isNotEmpty();

        NodeProcess second = f.start("n2");
        for (int attempt = 0; attempt < 2; attempt++) {
            HttpResponse<String> r = second.get(second.publicUrl("/c/pinned"));
            assertThat(r.statusCode()).as("answer %d: %s", attempt, r.body()).isGreaterThanOrEqualTo(500);
            assertThat(r.body()).isNotEqualTo("1");
        }
        String line = second.awaitLine(l -> l.contains("\"cell.activation_failed\"") && l.contains(scope), Duration.ofSeconds(30));
        assertThat(line).contains("activation refused").contains("base.json is missing");

        try (BucketStore b = f.openBucket()) {
            assertThat(listAll(b, "cells/" + scope + "/wal/")).as("the data after the refused activations")
                    .containsExactlyInAnyOrderElementsOf(data);
            JsonObject own = new JsonObject(new String(b.get("cells/" + scope + "/own.json").join().orElseThrow().bytes(),
                    StandardCharsets.UTF_8));
            assertThat(own.getString("node")).as("the cell is released, not half-acquired: " + own).isEmpty();
        }
    }

    static List<String> listAll(BucketStore b, String prefix) {
        List<String> out = new ArrayList<>();
        String cursor = null;
        do {
            ListPage p = b.list(prefix, cursor, 1000).join();
            out.addAll(p.keys());
            cursor = p.nextCursor();
        } while (cursor != null);
        return out;
    }
}
