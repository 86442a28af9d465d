package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.bindings.QueueCells;
import dev.cellgate.core.deploy.bindings.QueueConsumer;
import dev.cellgate.core.deploy.bindings.QueueProducerBinding;
import dev.cellgate.core.spi.bucket.BucketStore;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A queue on a fleet of two real node processes on the S3-compatible server: N messages are
 * produced, the node that owns the queue's cell is SIGKILLed while its consumer is working through
 * them, and the survivor takes the cell over and delivers the rest: every message reaches the
 * handler (at least once; the duplicates are counted and printed). The broken variant
 * ({@code CELLGATE_TEST_BROKEN_QUEUE=delete-before-handler}: a batch deleted before its handler
 * settled) loses the batch in flight at the kill: {@link QueuesBrokenDeliveryScenario} (in
 * .ci/qualify.sh, to keep this IT near 90 s) sees it.
 */
class QueuesFleetIT {
    static final long TTL_MS = 6000;
    static final int N = 120;
    static final String QUEUE = "jobs";
    static final String WORKER = """
            import { DurableObject } from 'cloudflare:workers';
            export class Seen extends DurableObject {
              constructor(ctx, env) {
                super(ctx, env);
                ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS seen (n INTEGER NOT NULL)');
                ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS batches (started INTEGER NOT NULL, finished INTEGER NOT NULL)');
                ctx.storage.sql.exec('INSERT INTO batches SELECT 0, 0 WHERE NOT EXISTS (SELECT 1 FROM batches)');
              }
              begin() { this.ctx.storage.sql.exec('UPDATE batches SET started = started + 1'); }
              record(ns) {
                for (const n of ns) this.ctx.storage.sql.exec('INSERT INTO seen (n) VALUES (?)', n);
                this.ctx.storage.sql.exec('UPDATE batches SET finished = finished + 1');
              }
              report() {
                const sql = this.ctx.storage.sql;
                const b = sql.exec('SELECT started, finished FROM batches').one();
                return { deliveries: sql.exec('SELECT count(*) AS c FROM seen').one().c,
                         distinct: sql.exec('SELECT count(DISTINCT n) AS c FROM seen').one().c, inFlight: b.started - b.finished };
              }
            }
            const seen = (env) => env.SEEN.get(env.SEEN.idFromName('seen'));
            export default {
              async fetch(request, env) {
                const url = new URL(request.url);
                if (url.pathname === '/produce') {
                  const from = Number(url.searchParams.get('from')), to = Number(url.searchParams.get('to'));
                  const batch = [];
                  for (let n = from; n < to; n++) batch.push({ body: { n } });
                  await env.JOBS.sendBatch(batch);
                  return new Response('sent ' + batch.length);
                }
                return Response.json(await seen(env).report());
              },
              async queue(batch, env) {
                // a handler that takes a while, so that the owner's kill can land in the middle of a batch
                await seen(env).begin();
                await new Promise((r) => setTimeout(r, 500));
                await seen(env).record(batch.messages.map((m) => m.body.n));
              },
            };
            """;

    @TempDir
    Path dir;

    @Test
    void everyMessageIsDeliveredAfterTheOwnersSigkill() throws Exception {
        Result r = run(dir, "queues-fleet", Map.of());
        assertThat(r.distinct).as("every message reached the handler (none lost); deliveries " + r.deliveries).isEqualTo(N);
        assertThat(r.deliveries).as("at least once").isGreaterThanOrEqualTo(N);
    }

    record Result(long distinct, long deliveries) {
    }

    /** Produces N messages, SIGKILLs the queue's owner with a batch in flight, and waits for the survivor to deliver the rest. */
    static Result run(Path dir, String bucketName, Map<String, String> extraEnv) throws Exception {
        long t0 = System.nanoTime();
        Map<String, String> env = new java.util.HashMap<>(extraEnv);
        env.put("CELLD_TTL_MS", String.valueOf(TTL_MS));
        try (Fleet f = Fleet.onBucket(dir.resolve(bucketName), S3Env.require().freshUrl(bucketName), env);
             BucketStore b = f.openBucket()) {
            QueueDeployments.publish(b, "queues", Map.of("index.js", WORKER), "index.js", Map.of("SEEN", "Seen"),
                    List.of(new QueueProducerBinding("JOBS", QUEUE, null)),
                    List.of(new QueueConsumer(QUEUE, 10L, 1L, 100L, null, null, null)));
            NodeProcess n1 = f.start("n1");
            NodeProcess n2 = f.start("n2");
            System.out.printf("queues (%s): two nodes up %,d ms after the start%n", bucketName, Duration.ofNanos(System.nanoTime() - t0).toMillis());
            for (int from = 0; from < N; from += 40) {
                NodeProcess via = from % 80 == 0 ? n1 : n2;
                HttpResponse<String> r = via.get(via.publicUrl("/produce?from=" + from + "&to=" + (from + 40)));
                assertThat(r.statusCode()).as("produce through " + via.name() + ": " + r.body()).isEqualTo(200);
            }
            // Kill the queue's owner once its consumer is a few batches in, while batches remain.
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            JsonObject report = report(n1);
            System.out.printf("queues (%s): %d messages produced %,d ms after the start%n", bucketName, N,
                    Duration.ofNanos(System.nanoTime() - t0).toMillis());
            while ((report.getLong("distinct") < 30 || report.getLong("inFlight") < 1) && System.nanoTime() < deadline) {
                Thread.sleep(50);
                report = report(n1);
            }
            assertThat(report.getLong("distinct")).as("the consumer started: " + report).isBetween(30L, (long) N - 30);
            String owner = ownerOf(b);
            assertThat(owner).as("the queue's cell is owned by a node").isIn("n1", "n2");
            NodeProcess killed = owner.equals("n1") ? n1 : n2;
            NodeProcess survivor = killed == n1 ? n2 : n1;
            killed.sigkill();
            long killedAt = System.nanoTime();
            System.out.printf("queues: SIGKILL of %s (%s) after %d distinct messages were handled, a batch in flight, %,d ms after the start%n",
                    killed.name(), bucketName, report.getLong("distinct"), Duration.ofNanos(System.nanoTime() - t0).toMillis());
            long end = System.nanoTime() + Duration.ofMillis(TTL_MS * 5).toNanos();
            JsonObject last = null;
            while (System.nanoTime() < end) {
                HttpResponse<String> r = survivor.get(survivor.publicUrl("/report"));
                if (r.statusCode() == 200) {
                    last = new JsonObject(r.body());
                    if (last.getLong("distinct") == N) {
                        break;
                    }
                }
                Thread.sleep(250);
            }
            assertThat(last).as("the survivor answers").isNotNull();
            if (last.getLong("distinct") == N) {
                Thread.sleep(1500); // a redelivery in flight would still count
                last = report(survivor);
            }
            System.out.printf("queues (%s): %d of %d messages handled, %d deliveries (%d duplicates), %,d ms after the kill, run %,d ms%n",
                    bucketName, last.getLong("distinct"), N, last.getLong("deliveries"), last.getLong("deliveries") - last.getLong("distinct"),
                    Duration.ofNanos(System.nanoTime() - killedAt).toMillis(), Duration.ofNanos(System.nanoTime() - t0).toMillis());
            assertThat(ownerOf(b)).as("the survivor took the queue over").isEqualTo(survivor.name());
            return new Result(last.getLong("distinct"), last.getLong("deliveries"));
        }
    }

    private static JsonObject report(NodeProcess n) throws Exception {
        HttpResponse<String> r = n.get(n.publicUrl("/report"));
        assertThat(r.statusCode()).as("report through " + n.name() + ": " + r.body()).isEqualTo(200);
        return new JsonObject(r.body());
    }

    private static String ownerOf(BucketStore b) {
        var own = b.get("cells/" + QueueCells.scopeOf(QUEUE) + "/own.json").join();
        return own.map(o -> new JsonObject(new String(o.bytes(), StandardCharsets.UTF_8)).getString("node")).orElse(null);
    }
}
