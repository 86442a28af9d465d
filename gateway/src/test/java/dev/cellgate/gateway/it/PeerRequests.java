package dev.cellgate.gateway.it;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.PeerAuthRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.gateway.peer.PeerAuth;
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

    static Map<String, String> signedHeaders(BucketStore bucket, String method, String pathAndQuery, byte[] body,
                                             String source, String target, long ts) throws Exception {
        try (bucket) {
            PeerAuthRecord key = PeerAuthRecord.decode(bucket.get(Keys.PEER_AUTH).get().orElseThrow().bytes());
            PeerAuth.Signed s = new PeerAuth(key.keyHex()).sign(method, pathAndQuery, body, source, target, ts);
            Map<String, String> h = new HashMap<>();
            h.put(PeerAuth.H_VERSION, s.version());
            h.put(PeerAuth.H_SOURCE, s.source());
            h.put(PeerAuth.H_TARGET, s.target());
            h.put(PeerAuth.H_TS, s.ts());
            h.put(PeerAuth.H_NONCE, s.nonce());
            h.put(PeerAuth.H_BODY, s.bodySha256());
            h.put(PeerAuth.H_MAC, s.mac());
            return h;
        }
    }

    static HttpResponse<String> send(String url, String method, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody());
        headers.forEach(b::header);
        return NodeProcess.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
