package dev.cellgate.gateway.it;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.PeerAuthRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.fleet.PeerSignature;
import dev.cellgate.core.fleet.PeerSignature.Envelope;
import dev.cellgate.gateway.peer.PeerWire;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** Builds peer requests as another node would, with the fleet key read from the bucket. */
final class PeerRequests {
    private PeerRequests() {
    }

    /** The fleet key, read from the bucket (which is closed after). */
    static String fleetKey(BucketStore bucket) throws Exception {
        try (bucket) {
            return PeerAuthRecord.decode(bucket.get(Keys.PEER_AUTH).get().orElseThrow().bytes()).keyHex();
        }
    }

    static Map<String, String> signedHeaders(BucketStore bucket, String method, String pathAndQuery, byte[] body,
                                             String source, String target, long ts) throws Exception {
        return headers(new PeerSignature(fleetKey(bucket)).sign(method, pathAndQuery, body, source, target, ts, Envelope.NONE));
    }

    /**
     * A signed cell fetch as a peer sends it: the signature headers plus the forwarded envelope
     * ({@code cg-fwd-method}, {@code -url}, {@code -headers}, {@code -request-id}), which the MAC covers.
     */
    static Map<String, String> signedFetch(BucketStore bucket, String pathAndQuery, byte[] body, String source, String target,
                                           Map<String, String> envelope) throws Exception {
        return signedFetchWithKey(fleetKey(bucket), pathAndQuery, body, source, target, envelope);
    }

    /** {@link #signedFetch} with the fleet key already read (for a loop that must not reopen the bucket). */
    static Map<String, String> signedFetchWithKey(String fleetKey, String pathAndQuery, byte[] body, String source, String target,
                                                  Map<String, String> envelope) {
        Envelope e = new Envelope(envelope.get(PeerWire.H_METHOD), envelope.get(PeerWire.H_URL), envelope.get(PeerWire.H_HEADERS),
                envelope.get(PeerWire.H_REQUEST_ID));
        Map<String, String> h = headers(new PeerSignature(fleetKey).sign("POST", pathAndQuery, body, source, target,
                System.currentTimeMillis(), e));
        h.putAll(envelope);
        return h;
    }

    private static Map<String, String> headers(PeerSignature.Signed s) {
        Map<String, String> h = new HashMap<>();
        PeerWire.putSigned(h::put, s);
        return h;
    }

    static HttpResponse<String> send(String url, String method, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody());
        headers.forEach(b::header);
        return NodeProcess.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> send(String url, String method, Map<String, String> headers, byte[] body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(b::header);
        return NodeProcess.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
