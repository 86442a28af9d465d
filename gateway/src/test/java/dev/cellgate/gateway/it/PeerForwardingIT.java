package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.fleet.PeerSignature;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.WakeEntryVerdict;
import dev.cellgate.core.logic.WakeKeys;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.OwnershipRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.gateway.faults.FaultPlan;
import dev.cellgate.gateway.faults.FaultProxy;
import dev.cellgate.gateway.faults.OwnershipWitness;
import dev.cellgate.gateway.peer.PeerWire;
import dev.cellgate.gateway.peer.WakeAnswer;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The peer protocol between real nodes (SPEC §19, §20): a forwarded call runs at most once, an
 * answer counts only when it is signed, the receiver authenticates the whole envelope before it
 * reads a body. n1 forwards to n2 through a {@link FaultProxy} (n2 advertises the proxy), and to
 * a {@link FakePeer} wherever the bucket names the fake as a cell's owner.
 */
class PeerForwardingIT {
    static final String WORKER = """
            import { DurableObject } from "cloudflare:workers";
            export class Counter extends DurableObject {
            """ + Fleet.COUNTER_STATE + """
              async fetch(request) {
                if (new URL(request.url).pathname === "/stream-out") {
                  const parts = ["ab", "cd", "ef"];
                  const enc = new TextEncoder();
                  return new Response(new ReadableStream({
                    pull(c) { const p = parts.shift(); if (p === undefined) c.close(); else c.enqueue(enc.encode(p)); }
                  }));
                }
                if (request.method === "POST") {
                  const body = await request.text();
                  return new Response(this.increment() + ":" + body);
                }
                return new Response(String(this.read()));
              }
            }
            function failure(e) {
              return Response.json({ error: String(e && e.message), retryable: e ? e.retryable : undefined,
                remote: e ? e.remote === true : false }, { status: 502 });
            }
            export default {
              async fetch(request, env) {
                const [, op, name] = new URL(request.url).pathname.split("/");
                const stub = env.COUNTER.getByName(name);
                try {
                  if (op === "id") return new Response(env.COUNTER.idFromName(name).toString());
                  if (op === "rpc") return new Response(String(await stub.increment()));
                  if (op === "read") return new Response(String(await stub.read()));
                  if (op === "post") {
                    const r = await stub.fetch("http://do/post", { method: "POST", body: await request.text() });
                    return new Response(await r.text(), { status: r.status });
                  }
                  if (op === "streamout") {
                    const r = await stub.fetch("http://do/stream-out");
                    return new Response(await r.text(), { status: r.status });
                  }
                  if (op === "stream") {
                    const parts = ["stre", "amed"];
                    const enc = new TextEncoder();
                    const body = new ReadableStream({
                      pull(c) { const p = parts.shift(); if (p === undefined) c.close(); else c.enqueue(enc.encode(p)); }
                    });
                    const r = await stub.fetch("http://do/post", { method: "POST", body, duplex: "half" });
                    return new Response(await r.text(), { status: r.status });
                  }
                  return new Response("no", { status: 404 });
                } catch (e) {
                  return failure(e);
                }
              }
            };
            """;

    @TempDir
    static Path dir;
    static Fleet fleet;
    static NodeProcess n1;
    static NodeProcess n2;
    static FaultProxy toN2;
    static FakePeer fake;

    @BeforeAll
    static void start() throws Exception {
        // A short waker tick: the wake-route tests need the waker's passes (nothing else here sets an alarm).
        fleet = Fleet.onFileBucket(dir, Map.of("CELLD_TTL_MS", "10000", "CELLD_WAKER_TICK_MS", "1000"));
        try (BucketStore b = fleet.openBucket()) {
            TestDeployments.publish(b, "peer-forwarding", Map.of("index.js", WORKER), "index.js", Map.of("COUNTER", "Counter"), Map.of());
        }
        int n2Internal = NodeProcess.freePort();
        toN2 = FaultProxy.start("to-n2", URI.create("http://127.0.0.1:" + n2Internal), new FaultPlan(30), new OwnershipWitness(),
                dir.resolve("faults-to-n2.log"));
        n2 = fleet.start("n2", Map.of("CELLD_INTERNAL_ADDR", "127.0.0.1:" + n2Internal,
                "CELLD_ADVERTISE", toN2.endpoint().substring("http://".length())));
        n1 = fleet.start("n1");
        fake = FakePeer.start();
    }

    @AfterAll
    static void stop() {
        if (fleet != null) {
            fleet.close();
        }
        if (toN2 != null) {
            toN2.close();
        }
        if (fake != null) {
            fake.close();
        }
    }

    // ---- at-most-once forwarding (SPEC §20) ----

    @Test
    void anRpcWhoseAnswerIsLostAfterTheOwnerRanItRunsOnceAndTheCallerLearnsTheOutcomeIsUnknown() throws Exception {
        lostAnswerRunsOnce("once-rpc", "v1/call/", "/rpc/once-rpc");
    }

    @Test
    void aPostWhoseAnswerIsLostAfterTheOwnerRanItRunsOnceAndTheCallerLearnsTheOutcomeIsUnknown() throws Exception {
        lostAnswerRunsOnce("once-post", "v1/fetch/", "/post/once-post");
    }

    /** n2 owns {@code cell}; the proxy delivers n1's forwarded call to n2, which runs it, and drops the answer once. */
    private static void lostAnswerRunsOnce(String cell, String peerRoute, String callPath) throws Exception {
        assertThat(n2.get(n2.publicUrl("/read/" + cell)).body()).as("n2 activates and owns the cell").isEqualTo("0");
        AtomicBoolean armed = new AtomicBoolean(true);
        toN2.plan().add("drop the owner's answer once", c -> c.key().startsWith(peerRoute) && armed.getAndSet(false), 1.0,
                FaultPlan.Action.DROP_RESPONSE);
        HttpResponse<String> r;
        try {
            r = callPath.startsWith("/post/") ? n1.post(n1.publicUrl(callPath), "x") : n1.get(n1.publicUrl(callPath));
        } finally {
            toN2.plan().clear();
        }
        assertThat(armed.get()).as("the proxy dropped an answer").isFalse();
        String stored = n2.get(n2.publicUrl("/read/" + cell)).body();
        assertThat(stored).as("the counter behind the lost answer (caller got %d %s)", r.statusCode(), r.body()).isEqualTo("1");
        assertThat(r.statusCode()).as("the caller's answer: %s", r.body()).isEqualTo(502);
        JsonObject e = new JsonObject(r.body());
        assertThat(e.getValue("retryable")).as("Cloudflare's shape for an unknown outcome: %s", e).isEqualTo(false);
        assertThat(e.getString("error")).containsIgnoringCase("outcome unknown");
    }

    @Test
    void aForwardedCallToALiveOwnerGetsItsSignedAnswerWholeOrStreamed() throws Exception {
        String cell = "answered";
        assertThat(n2.get(n2.publicUrl("/read/" + cell)).body()).as("n2 owns the cell").isEqualTo("0");
        assertThat(n1.get(n1.publicUrl("/rpc/" + cell)).body()).as("an RPC").isEqualTo("1");
        assertThat(n1.post(n1.publicUrl("/post/" + cell), "x").body()).as("a fetch with a body").isEqualTo("2:x");
        assertThat(n1.get(n1.publicUrl("/stream/" + cell)).body()).as("a streamed request body").isEqualTo("3:streamed");
        assertThat(n1.get(n1.publicUrl("/streamout/" + cell)).body()).as("a streamed answer, its digest in a signed trailer")
                .isEqualTo("abcdef");
        assertThat(n1.get(n1.publicUrl("/read/" + cell)).body()).isEqualTo("3");
    }

    // ---- the receiver authenticates the envelope before the body (SPEC §19) ----

    @Test
    void everyEnvelopeFieldTamperedOnAValidlySignedRequestIsRefused() throws Exception {
        assertThat(n1.get(n1.publicUrl("/read/tamper")).body()).as("n1 owns the cell").isEqualTo("0");
        String scope = "Counter:" + n1.get(n1.publicUrl("/id/tamper")).body();
        String path = PeerWire.fetchPath(scope) + "?name=tamper";
        Map<String, String> envelope = envelope("GET", "http://do/read", List.of(Map.entry("x-a", "1")), "tamper-1");
        HttpResponse<String> ok = PeerRequests.send(n1.internalUrl(path), "POST",
                PeerRequests.signedFetch(fleet.openBucket(), path, new byte[0], "n2", "n1", envelope), new byte[0]);
        assertThat(ok.statusCode()).as("the untampered request: %s", ok.body()).isEqualTo(200);
        assertThat(ok.headers().firstValue(PeerWire.H_RESULT)).hasValue(PeerWire.OK);

        Map<String, String> tampered = Map.of(
                PeerWire.H_METHOD, "POST",
                PeerWire.H_URL, "http://do/evil",
                PeerWire.H_HEADERS, PeerWire.encodeHeaders(List.of(Map.entry("x-a", "2"))),
                PeerWire.H_REQUEST_ID, "tamper-2");
        for (Map.Entry<String, String> t : tampered.entrySet()) {
            Map<String, String> h = PeerRequests.signedFetch(fleet.openBucket(), path, new byte[0], "n2", "n1", envelope);
            h.put(t.getKey(), t.getValue());
            HttpResponse<String> r = PeerRequests.send(n1.internalUrl(path), "POST", h, new byte[0]);
            assertThat(r.statusCode()).as("%s tampered: %s", t.getKey(), r.body()).isEqualTo(401);
        }
        assertThat(n1.get(n1.publicUrl("/read/tamper")).body()).as("no tampered request ran").isEqualTo("0");
    }

    @Test
    void aBodyThatIsNotTheSignedOneIsRefusedAfterItIsRead() throws Exception {
        assertThat(n1.get(n1.publicUrl("/read/body-swap")).body()).as("n1 owns the cell").isEqualTo("0");
        String scope = "Counter:" + scopeHex("body-swap");
        String path = PeerWire.fetchPath(scope) + "?name=body-swap";
        Map<String, String> envelope = envelope("POST", "http://do/post", List.of(), "swap-1");
        Map<String, String> h = PeerRequests.signedFetch(fleet.openBucket(), path, "signed".getBytes(StandardCharsets.UTF_8), "n2", "n1",
                envelope);
        HttpResponse<String> r = PeerRequests.send(n1.internalUrl(path), "POST", h, "swapped".getBytes(StandardCharsets.UTF_8));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(401);
        assertThat(r.body()).contains("does not match its signed digest");
        assertThat(r.headers().firstValue(PeerSignature.H_ANSWER_MAC)).as("the refusal of an authenticated head is signed").isPresent();
        assertThat(n1.get(n1.publicUrl("/read/body-swap")).body()).as("nothing ran").isEqualTo("0");
    }

    @Test
    void theTunnelsEnvelopeIsCoveredToo() throws Exception {
        String scope = "Counter:" + scopeHex("tunnel-tamper");
        String path = PeerWire.socketPath(scope) + "?name=tunnel-tamper";
        Map<String, String> envelope = envelope("GET", "http://do/ws", List.of(Map.entry("upgrade", "websocket")), "t-1");
        // Without an Upgrade header the authenticated request gets the route's own (signed) 400; a tampered one never gets that far.
        HttpResponse<String> ok = PeerRequests.send(n1.internalUrl(path), "GET", signedSocket(path, envelope));
        assertThat(ok.statusCode()).as("the untampered upgrade request: %s", ok.body()).isEqualTo(400);
        assertThat(ok.body()).contains("WebSocket upgrades only");
        assertThat(ok.headers().firstValue(PeerSignature.H_ANSWER_MAC)).as("an answer after authentication is signed").isPresent();
        for (String field : envelope.keySet()) {
            Map<String, String> h = signedSocket(path, envelope);
            h.put(field, field.equals(PeerWire.H_HEADERS) ? PeerWire.encodeHeaders(List.of()) : "tampered");
            HttpResponse<String> r = PeerRequests.send(n1.internalUrl(path), "GET", h);
            assertThat(r.statusCode()).as("%s tampered: %s", field, r.body()).isEqualTo(401);
        }
    }

    private static Map<String, String> signedSocket(String path, Map<String, String> envelope) throws Exception {
        PeerSignature.Envelope e = new PeerSignature.Envelope(envelope.get(PeerWire.H_METHOD), envelope.get(PeerWire.H_URL),
                envelope.get(PeerWire.H_HEADERS), envelope.get(PeerWire.H_REQUEST_ID));
        Map<String, String> h = new HashMap<>();
        PeerWire.putSigned(h::put, new PeerSignature(PeerRequests.fleetKey(fleet.openBucket()))
                .sign("GET", path, new byte[0], "n2", "n1", System.currentTimeMillis(), e));
        h.putAll(envelope);
        return h;
    }

    @Test
    void anUnauthenticatedRequestWithAHugeBodyIsRefusedBeforeItsBodyIsRead() throws Exception {
        String scope = "Counter:" + n1.get(n1.publicUrl("/id/huge")).body();
        String path = PeerWire.callPath(scope) + "?method=increment&name=huge";
        Map<String, String> h = PeerRequests.signedHeaders(fleet.openBucket(), "POST", path, new byte[0], "n2", "n1",
                System.currentTimeMillis());
        h.put(PeerSignature.H_MAC, "0".repeat(64));
        long declared = 100L * 1024 * 1024; // the node's default body limit: accepted by size alone
        String[] hp = n1.internalAddr().split(":");
        try (Socket s = new Socket(InetAddress.getByName(hp[0]), Integer.parseInt(hp[1]))) {
            StringBuilder head = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: " + n1.internalAddr()
                    + "\r\nContent-Length: " + declared + "\r\n");
            h.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
            head.append("\r\n");
            OutputStream out = s.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            byte[] first = new byte[64 * 1024];
            out.write(first);
            out.flush();
            s.setSoTimeout(15_000);
            String status;
            try {
                status = statusLine(s.getInputStream());
            } catch (SocketTimeoutException e) {
                status = "no answer within 15 s after " + first.length + " of " + declared + " body bytes";
            }
            assertThat(status).as("the node's answer while most of the body is still unsent").startsWith("HTTP/1.1 401");
        }
    }

    @Test
    void aPeerOfTheOlderProtocolVersionGets426() throws Exception {
        String url = n1.internalUrl("/peer/v1/probe");
        Map<String, String> h = PeerRequests.signedHeaders(fleet.openBucket(), "GET", "/peer/v1/probe", new byte[0], "n2", "n1",
                System.currentTimeMillis());
        h.put(PeerSignature.H_VERSION, Integer.toString(PeerSignature.VERSION - 1));
        assertThat(PeerRequests.send(url, "GET", h).statusCode()).isEqualTo(426);
    }

    // ---- answers count only when signed ----

    @Test
    void aForgedNotOwnerAnswerIsIgnoredNotRerouted() throws Exception {
        Map<String, String> unsigned = Map.of(PeerWire.H_RESULT, PeerWire.NOT_OWNER, PeerWire.H_OWNER, "n2");
        Map<String, String> badMac = new HashMap<>(unsigned);
        badMac.put(PeerSignature.H_ANSWER_MAC, "0".repeat(64));
        badMac.put(PeerSignature.H_BODY, PeerSignature.sha256("not the owner".getBytes(StandardCharsets.UTF_8)));
        for (Map<String, String> forged : List.of(unsigned, badMac)) {
            String cell = "forged-not-owner-" + forged.size();
            ownedByFake(cell);
            fake.reset();
            fake.otherwise(r -> FakePeer.Answer.of(409, forged, "not the owner"));
            HttpResponse<String> r = n1.get(n1.publicUrl("/rpc/" + cell));
            assertThat(fake.received()).as("requests the fake peer got (forged answer %s)", forged).hasSize(1);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(502);
            assertThat(new JsonObject(r.body()).getValue("retryable")).as(r.body()).isEqualTo(false);
            String hex = scopeHex(cell);
            assertThat(n2.events("cell.activated").stream().anyMatch(j -> j.getString("scope").endsWith(hex)))
                    .as("the node a forged answer named never got the call").isFalse();
        }
    }

    @Test
    void anUnsignedOkAnswerIsNotDelivered() throws Exception {
        String cell = "forged-ok";
        ownedByFake(cell);
        fake.reset();
        fake.otherwise(r -> FakePeer.Answer.of(200, Map.of(PeerWire.H_RESULT, PeerWire.OK, PeerWire.H_HEADERS,
                PeerWire.encodeHeaders(List.of())), "999"));
        HttpResponse<String> r = n1.post(n1.publicUrl("/post/" + cell), "x");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(502);
        assertThat(r.body()).doesNotContain("999");
        assertThat(new JsonObject(r.body()).getValue("retryable")).as(r.body()).isEqualTo(false);
    }

    @Test
    void aSignedOkWhoseBodyChangedOnTheWayIsNotDelivered() throws Exception {
        String cell = "changed-ok";
        ownedByFake(cell);
        fake.reset();
        fake.otherwise(r -> {
            FakePeer.Answer signed = signedAnswer(r, 200, okHeaders(), "999");
            return new FakePeer.Answer(200, signed.headers(), "998".getBytes(StandardCharsets.UTF_8));
        });
        HttpResponse<String> r = n1.post(n1.publicUrl("/post/" + cell), "x");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(502);
        assertThat(r.body()).doesNotContain("998").contains("signed digest");
    }

    @Test
    void aStreamedBodyIsSentAgainAfterASignedDrainingAnswer() throws Exception {
        String cell = "drain-stream";
        ownedByFake(cell);
        fake.reset();
        fake.then(r -> signedAnswer(r, 503, Map.of(PeerWire.H_RESULT, PeerWire.DRAINING), "draining"))
                .otherwise(r -> signedAnswer(r, 200, okHeaders(), "echo:" + r.text()));
        HttpResponse<String> r = n1.get(n1.publicUrl("/stream/" + cell));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("echo:streamed");
        assertThat(fake.received()).extracting(FakePeer.Received::text).containsExactly("streamed", "streamed");
    }

    @Test
    void theForwardedEnvelopeIsSignedAndTheOwnerSeesItIntact() throws Exception {
        String cell = "envelope";
        ownedByFake(cell);
        fake.reset();
        fake.otherwise(r -> signedAnswer(r, 200, okHeaders(), "seen"));
        assertThat(n1.post(n1.publicUrl("/post/" + cell), "x").body()).isEqualTo("seen");
        FakePeer.Received got = fake.received().get(0);
        PeerSignature sig = new PeerSignature(PeerRequests.fleetKey(fleet.openBucket()));
        PeerSignature.Envelope e = new PeerSignature.Envelope(got.header(PeerWire.H_METHOD), got.header(PeerWire.H_URL),
                got.header(PeerWire.H_HEADERS), got.header(PeerWire.H_REQUEST_ID));
        assertThat(e.method()).isEqualTo("POST");
        assertThat(e.url()).isEqualTo("http://do/post");
        assertThat(got.header(PeerSignature.H_VERSION)).isEqualTo(Integer.toString(PeerSignature.VERSION));
        assertThat(sig.requestMac(got.header(PeerSignature.H_VERSION), got.method(), got.pathAndQuery(), PeerSignature.sha256(got.body()),
                got.header(PeerSignature.H_SOURCE), got.header(PeerSignature.H_TARGET), got.header(PeerSignature.H_TS),
                got.header(PeerSignature.H_NONCE), e)).as("the MAC n1 sent covers the envelope it sent").isEqualTo(got.header(PeerSignature.H_MAC));
    }

    // ---- the waker's call: its query is signed, its JSON answer too ----

    @Test
    void aWakeRequestsEntryIsCoveredByItsMacAndItsJsonAnswerIsSigned() throws Exception {
        assertThat(n1.get(n1.publicUrl("/read/wake-route")).body()).as("n1 owns the cell").isEqualTo("0");
        String scope = "Counter:" + scopeHex("wake-route");
        long minute = WakeKeys.minuteOf(System.currentTimeMillis() - 120_000);
        String path = PeerWire.wakePath(scope) + WakeAnswer.query(OptionalLong.of(minute));
        Map<String, String> h = PeerRequests.signedHeaders(fleet.openBucket(), "POST", path, new byte[0], "n2", "n1",
                System.currentTimeMillis());
        HttpResponse<String> ok = PeerRequests.send(n1.internalUrl(path), "POST", h, new byte[0]);
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(WakeAnswer.decode(ok.body())).as("no alarm in that minute: %s", ok.body()).isEqualTo(WakeEntryVerdict.Reply.DROPPED);
        PeerSignature.Answer answer = PeerSignature.Answer.read(ok.statusCode(), name -> ok.headers().firstValue(name).orElse(null));
        assertThat(answer.bodySha256()).as("the answer's signed digest is its JSON body's")
                .isEqualTo(PeerSignature.sha256(ok.body().getBytes(StandardCharsets.UTF_8)));
        assertThat(new PeerSignature(PeerRequests.fleetKey(fleet.openBucket())).answerMac(h.get(PeerSignature.H_NONCE), answer))
                .isEqualTo(ok.headers().firstValue(PeerSignature.H_ANSWER_MAC).orElse(null));

        for (String sent : List.of(PeerWire.wakePath(scope) + WakeAnswer.query(OptionalLong.of(minute + 60_000)), PeerWire.wakePath(scope))) {
            Map<String, String> signedForAnother = PeerRequests.signedHeaders(fleet.openBucket(), "POST", path, new byte[0], "n2", "n1",
                    System.currentTimeMillis());
            HttpResponse<String> r = PeerRequests.send(n1.internalUrl(sent), "POST", signedForAnother, new byte[0]);
            assertThat(r.statusCode()).as("signed for %s, sent as %s: %s", path, sent, r.body()).isEqualTo(401);
        }
    }

    /**
     * A forged "no_class" would make the waker delete a live alarm's entry after two passes: an
     * answer changed on the way (signed "kept", delivered "no_class") and an unsigned one are both
     * ignored and the entry stays; the same answer properly signed deletes it (the control that
     * shows the test reaches the deletion).
     */
    @Test
    void aTamperedWakeAnswerIsIgnoredAndTheEntryStays() throws Exception {
        String cell = "wake-forged";
        ownedByFake(cell);
        String scope = "Counter:" + scopeHex(cell);
        long alarm = System.currentTimeMillis() - 120_000;
        String entry = WakeKeys.key(alarm, scope);
        String noClass = WakeAnswer.encode(WakeEntryVerdict.Reply.NO_CLASS);
        AtomicInteger answered = new AtomicInteger();
        fake.reset();
        fake.otherwise(r -> {
            if (answered.getAndIncrement() % 2 == 0) {
                FakePeer.Answer signed = signedAnswer(r, 200, Map.of(PeerWire.H_RESULT, PeerWire.OK),
                        WakeAnswer.encode(WakeEntryVerdict.Reply.KEPT));
                return new FakePeer.Answer(200, signed.headers(), noClass.getBytes(StandardCharsets.UTF_8));
            }
            return FakePeer.Answer.of(200, Map.of(PeerWire.H_RESULT, PeerWire.OK), noClass);
        });
        try (BucketStore b = fleet.openBucket()) {
            b.put(entry, new byte[0]).join();
        }
        long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(90);
        while (wakeFailures(scope) < WakeEntryVerdict.NO_CLASS_SIGHTINGS + 1 && System.nanoTime() < end) {
            Thread.sleep(200);
        }
        assertThat(wakeFailures(scope)).as("waker passes that got only forged answers (the fake got %d requests)", fake.received().size())
                .isGreaterThan(WakeEntryVerdict.NO_CLASS_SIGHTINGS);
        assertThat(fake.received()).allMatch(r -> r.pathAndQuery().startsWith(PeerWire.wakePath(scope) + "?" + WakeAnswer.ENTRY_PARAM
                + "=" + WakeKeys.minuteOf(alarm)), "every request was the wake of that entry");
        try (BucketStore b = fleet.openBucket()) {
            assertThat(b.get(entry).join()).as("the entry behind forged no_class answers").isPresent();
        }

        fake.otherwise(r -> signedAnswer(r, 200, Map.of(PeerWire.H_RESULT, PeerWire.OK), noClass));
        boolean gone = false;
        end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
        while (!gone && System.nanoTime() < end) {
            Thread.sleep(250);
            try (BucketStore b = fleet.openBucket()) {
                gone = b.get(entry).join().isEmpty();
            }
        }
        assertThat(gone).as("the same no_class, signed, deletes the entry (the fake got %d requests)", fake.received().size()).isTrue();
    }

    /** {@code waker.wake_failed} lines for {@code scope} on either node (whichever holds the waker lease). */
    private static long wakeFailures(String scope) {
        return java.util.stream.Stream.of(n1, n2).flatMap(n -> n.events("waker.wake_failed").stream())
                .filter(j -> scope.equals(j.getString("scope"))).count();
    }

    // ---- helpers ----

    private static final Map<String, String> IDS = new HashMap<>();

    private static synchronized String scopeHex(String cell) throws Exception {
        String id = IDS.get(cell);
        if (id == null) {
            id = n1.get(n1.publicUrl("/id/" + cell)).body();
            IDS.put(cell, id);
        }
        return id;
    }

    /** Makes the bucket say the fake peer owns {@code cell} and is alive, as a real owner's records would. */
    private static void ownedByFake(String cell) throws Exception {
        String scope = "Counter:" + scopeHex(cell);
        long now = System.currentTimeMillis();
        try (BucketStore b = fleet.openBucket()) {
            b.put(Keys.lease("fake"), new LeaseRecord("fake", "fake-session", fake.advertise(), PeerSignature.VERSION, now,
                    now + 600_000, LeaseRecord.Load.IDLE).encode()).join();
            b.put(Keys.ownership(scope), new OwnershipRecord("fake", "fake-session", 1).encode()).join();
        }
    }

    /** The cg-fwd-* headers of a forwarded request, in order. */
    static Map<String, String> envelope(String method, String url, List<Map.Entry<String, String>> headers, String requestId) {
        Map<String, String> e = new LinkedHashMap<>();
        e.put(PeerWire.H_METHOD, method);
        e.put(PeerWire.H_URL, url);
        e.put(PeerWire.H_HEADERS, PeerWire.encodeHeaders(headers));
        e.put(PeerWire.H_REQUEST_ID, requestId);
        return e;
    }

    static Map<String, String> okHeaders() {
        return Map.of(PeerWire.H_RESULT, PeerWire.OK, PeerWire.H_HEADERS, PeerWire.encodeHeaders(List.of()));
    }

    /** An answer signed with the fleet key for the request {@code r}, as a real owner signs it. */
    static FakePeer.Answer signedAnswer(FakePeer.Received r, int status, Map<String, String> headers, String body) {
        try {
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            Map<String, String> h = new HashMap<>(headers);
            h.put(PeerSignature.H_BODY, PeerSignature.sha256(b));
            PeerSignature.Answer a = new PeerSignature.Answer(status, h.get(PeerWire.H_RESULT), h.get(PeerWire.H_OWNER),
                    h.get(PeerWire.H_RETRYABLE), h.get(PeerWire.H_STATUS_TEXT), h.get(PeerWire.H_HEADERS), h.get(PeerSignature.H_BODY));
            h.put(PeerSignature.H_ANSWER_MAC, new PeerSignature(PeerRequests.fleetKey(fleet.openBucket()))
                    .answerMac(r.header(PeerSignature.H_NONCE), a));
            return new FakePeer.Answer(status, h, b);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String statusLine(InputStream in) throws Exception {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            b.append((char) c);
        }
        return b.toString().trim();
    }
}
