package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alarms on time across a node restart, a crash and a handoff (SPEC §18, issue 29 item 2). The waker ticks every 30 s so
 * no regular scan can meet the bound: only a wake scan run as soon as the deployment loads can.
 * Lateness is the object's own {@code Date.now()} inside {@code alarm()} minus the later of the
 * scheduled time and the moment the restarted node's deployment loaded.
 */
class AlarmsAcrossMovesIT {
    static final String WORKER = """
            import { DurableObject } from "cloudflare:workers";
            export class Timer extends DurableObject {
              async fetch(request) {
                const url = new URL(request.url);
                if (url.pathname.startsWith("/set/")) {
                  const at = Date.now() + Number(url.searchParams.get("in"));
                  await this.ctx.storage.put("scheduled", at);
                  await this.ctx.storage.setAlarm(at);
                  return new Response(String(at));
                }
                return Response.json((await this.ctx.storage.get("fired")) ?? []);
              }
              async alarm() {
                const fired = (await this.ctx.storage.get("fired")) ?? [];
                fired.push({ at: Date.now(), scheduled: await this.ctx.storage.get("scheduled") });
                await this.ctx.storage.put("fired", fired);
              }
            }
            export default {
              fetch(request, env) {
                const name = new URL(request.url).pathname.split("/")[2];
                return env.TIMER.getByName(name).fetch(request);
              }
            };
            """;
    static final long TICK_MS = 30_000;

    @TempDir
    Path dir;
    Fleet fleet;

    @AfterEach
    void stop() {
        if (fleet != null) {
            fleet.close();
        }
    }

    private Fleet fleet(Map<String, String> extra) throws Exception {
        java.util.HashMap<String, String> env = new java.util.HashMap<>(Map.of("CELLD_TTL_MS", "3000",
                "CELLD_WAKER_TICK_MS", String.valueOf(TICK_MS)));
        env.putAll(extra);
        Fleet f = Fleet.onFileBucket(dir, env);
        try (BucketStore b = f.openBucket()) {
            TestDeployments.publish(b, "alarms", Map.of("index.js", WORKER), "index.js", Map.of("TIMER", "Timer"), Map.of());
        }
        return f;
    }

    /** The alarm's own record of when it ran, read through a fetch, waiting up to {@code timeout}. */
    static JsonObject firedRecord(NodeProcess n, String name, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            var r = n.get(n.publicUrl("/runs/" + name));
            if (r.statusCode() == 200) {
                JsonArray a = new JsonArray(r.body());
                if (!a.isEmpty()) {
                    return a.getJsonObject(0);
                }
            }
            Thread.sleep(250);
        }
        return null;
    }

    static long loadedAt(NodeProcess n) {
        return n.events("deployment.loaded").stream().map(e -> Instant.parse(e.getString("ts")).toEpochMilli())
                .findFirst().orElseThrow(() -> new AssertionError("no deployment.loaded on " + n.name()));
    }

    /** The alarm comes due after the node is back: the scan at deployment load arms it ahead of time. */
    @Test
    void aRestartedNodesAlarmFiresWithinASecondOfItsDeploymentLoading() throws Exception {
        restartAndMeasure(15_000, 0);
    }

    /** The alarm came due while the node was down: it fires as soon as the deployment has loaded. */
    @Test
    void anAlarmDueWhileTheNodeWasDownFiresWithinASecondOfItsDeploymentLoading() throws Exception {
        restartAndMeasure(1_000, 3_000);
    }

    /**
     * SIGKILL the owner: its lease dies at expiry + the margin (under 1 s here; SPEC §20 forbids a
     * takeover sooner), and a peer wakes the alarm then, not at its waker's next tick.
     */
    @Test
    void aCrashedOwnersAlarmFiresWithinTtlPlusASecondOfItsTime() throws Exception {
        fleet = fleet(Map.of("CELLD_CLOCK_SKEW_MS", "500"));
        NodeProcess c1 = fleet.start("c1");
        NodeProcess c2 = fleet.start("c2");
        long at = Long.parseLong(c1.post(c1.publicUrl("/set/crash?in=1000"), "").body());
        NodeProcess owner = c1.events("cell.activated").isEmpty() ? c2 : c1;
        NodeProcess survivor = owner == c1 ? c2 : c1;
        long killed = System.currentTimeMillis();
        owner.sigkill();
        owner.waitForExit(Duration.ofSeconds(30));
        fleet.nodes.remove(owner);
        Thread.sleep(Math.max(0, at + 5_000 - System.currentTimeMillis()));
        JsonObject fired = firedRecord(survivor, "crash", Duration.ofSeconds(90));
        assertThat(fired).as("the alarm ran after its owner was killed").isNotNull();
        long late = fired.getLong("at") - fired.getLong("scheduled");
        System.out.printf("crash (owner %s killed %,d ms before the alarm's time): scheduled %d, fired %d on %s: %,d ms late%n",
                owner.name(), fired.getLong("scheduled") - killed, fired.getLong("scheduled"), fired.getLong("at"), survivor.name(), late);
        System.out.println("crash: the survivor's timeline from the kill: "
                + timeline(survivor, killed, "fleet.lease_dead", "waker.scan", "cell.activated", "alarm.fired"));
        // The peer looks again just as the dead lease can be judged so (its expiry + the 500 ms margin), not at its next refresh.
        JsonObject death = survivor.events("fleet.lease_dead").stream().findFirst() // of its only peer
                .orElseThrow(() -> new AssertionError("the survivor never saw " + owner.name() + "'s lease dead"));
        long seenAfter = Instant.parse(death.getString("ts")).toEpochMilli() - (death.getLong("expires_ms") + 500);
        System.out.printf("crash: the survivor saw the lease dead %,d ms after it could first be judged so%n", seenAfter);
        assertThat(seenAfter).as("the death seen one bucket read after expiry + margin").isBetween(0L, 500L);
        assertThat(late).as("fired %,d ms late", late).isLessThan(4_000);
    }

    /**
     * SIGTERM the owner (a graceful handoff) 3 s before its cell's alarm is due: the releasing node hands
     * the cell to its peer, which arms the alarm, so it fires on time there. Without the handoff poke
     * nothing re-arms it until a waker tick (30 s here) or a request wakes the cell: the read below
     * comes 3 s after the alarm's time, so such a run is at least 3 s late.
     */
    @Test
    void anAlarmDueJustAfterAHandoffFiresWithinASecondOfItsTime() throws Exception {
        fleet = fleet(Map.of());
        NodeProcess h1 = fleet.start("h1");
        NodeProcess h2 = fleet.start("h2");
        // The set answers once its commit is durable; on a loaded machine that can take seconds, and a
        // handoff signalled too close to the alarm tests nothing. Such a cell is left and another tried.
        String name = null;
        String scope = null;
        long at = 0;
        NodeProcess owner = null;
        for (int i = 0; i < 3 && name == null; i++) {
            int before1 = h1.events("cell.activated").size();
            int before2 = h2.events("cell.activated").size();
            long a = Long.parseLong(h1.post(h1.publicUrl("/set/handoff" + i + "?in=3000"), "").body());
            long spare = a - System.currentTimeMillis();
            NodeProcess o = activatedSince(h1, before1, h2, before2);
            if (spare >= 1_500) {
                java.util.List<JsonObject> act = o.events("cell.activated");
                name = "handoff" + i;
                at = a;
                owner = o;
                scope = act.get(act.size() - 1).getString("scope");
            } else {
                System.out.printf("handoff: the set of handoff%d answered %,d ms before its alarm; trying another cell%n", i, spare);
            }
        }
        assertThat(name).as("a set answered at least 1.5 s before its alarm (3 tries)").isNotNull();
        NodeProcess survivor = owner == h1 ? h2 : h1;
        long signalled = System.currentTimeMillis();
        owner.sigterm();
        assertThat(owner.waitForExit(Duration.ofSeconds(60))).isZero();
        fleet.nodes.remove(owner);
        System.out.printf("handoff: owner %s signalled %,d ms before the alarm's time, exited %+,d ms from it; its log: %s %s %s%n",
                owner.name(), at - signalled, System.currentTimeMillis() - at, owner.events("shutdown.requested"),
                owner.events("handoff.alarm_poked"), owner.events("shutdown.drained"));
        String cell = scope;
        assertThat(owner.events("alarm.fired").stream().filter(e -> cell.equals(e.getString("scope"))).toList())
                .as("the owner released the cell before its alarm came due (else this run tested no handoff: the stop was"
                        + " too slow)").isEmpty();
        Thread.sleep(Math.max(0, at - System.currentTimeMillis()) + 3_000);
        JsonObject fired = firedRecord(survivor, name, Duration.ofSeconds(90));
        System.out.println("handoff: the owner's release " + owner.events("cell.released") + ", the peer's activation "
                + survivor.events("cell.activated"));
        assertThat(fired).as("the alarm ran after its owner handed off").isNotNull();
        long late = fired.getLong("at") - fired.getLong("scheduled");
        System.out.printf("handoff (owner %s stopped): scheduled %d, fired %d on %s: %,d ms late%n", owner.name(),
                fired.getLong("scheduled"), fired.getLong("at"), survivor.name(), late);
        assertThat(late).as("fired %,d ms late", late).isLessThan(1_000);
    }

    /** Each event's offsets (ms) from {@code fromMs} in the node's log: where a late alarm spent its time. */
    static String timeline(NodeProcess n, long fromMs, String... events) {
        StringBuilder out = new StringBuilder();
        for (String ev : events) {
            out.append(ev).append(n.events(ev).stream().map(e -> Instant.parse(e.getString("ts")).toEpochMilli() - fromMs)
                    .filter(d -> d > -2_000).map(d -> String.format("%+,d", d)).toList()).append(' ');
        }
        return out.toString().trim();
    }

    /** The node that logged a new activation (its log is read a moment after the answer). */
    static NodeProcess activatedSince(NodeProcess a, int beforeA, NodeProcess b, int beforeB) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (System.nanoTime() < end) {
            if (a.events("cell.activated").size() > beforeA) {
                return a;
            }
            if (b.events("cell.activated").size() > beforeB) {
                return b;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no node logged the cell's activation");
    }

    private void restartAndMeasure(long inMs, long downMs) throws Exception {
        fleet = fleet(Map.of());
        NodeProcess a1 = fleet.start("r1");
        long at = Long.parseLong(a1.post(a1.publicUrl("/set/restart?in=" + inMs), "").body());
        a1.sigterm();
        assertThat(a1.waitForExit(Duration.ofSeconds(60))).isZero();
        fleet.nodes.remove(a1);
        Thread.sleep(downMs);
        NodeProcess again = fleet.start("r1");
        long loaded = loadedAt(again);
        // no request reaches the cell until the alarm has had its chance: the read below comes later
        long due = Math.max(at, loaded);
        Thread.sleep(Math.max(0, due - System.currentTimeMillis()) + 3_000);
        JsonObject fired = firedRecord(again, "restart", Duration.ofSeconds(90));
        assertThat(fired).as("the alarm ran after the restart").isNotNull();
        long late = fired.getLong("at") - Math.max(fired.getLong("scheduled"), loaded);
        System.out.printf("restart (alarm in %d ms, down %d ms more): scheduled %d, deployment loaded %d, fired %d: %,d ms late%n",
                inMs, downMs, fired.getLong("scheduled"), loaded, fired.getLong("at"), late);
        assertThat(late).as("fired %,d ms late", late).isLessThan(1_000);
    }
}
