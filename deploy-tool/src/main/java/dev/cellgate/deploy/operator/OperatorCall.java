package dev.cellgate.deploy.operator;

import dev.cellgate.core.fleet.OperatorSignature;
import dev.cellgate.deploy.diagnose.AdvertiseAddress;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * One call to a node's mutating operator API ({@code POST /shutdown}, {@code /evict/<scope>},
 * {@code /probe}), signed with the fleet key for that node exactly as the node checks it
 * ({@link OperatorSignature}: one implementation on both sides).
 */
public final class OperatorCall {
    private final HttpClient http;
    private final OperatorSignature signature;
    private final Duration timeout;

    public OperatorCall(OperatorSignature signature, Duration timeout) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
        this.signature = signature;
        this.timeout = timeout;
    }

    /** The node's answer. */
    public record Answer(int status, String body) {
    }

    /** {@code POST pathAndQuery} with an empty body to {@code node} at {@code address}. */
    public Answer post(String node, AdvertiseAddress address, String pathAndQuery) throws IOException, InterruptedException {
        return post(node, address, pathAndQuery, new byte[0]);
    }

    /** {@code POST pathAndQuery} with {@code body} (signed with it) to {@code node} at {@code address}. */
    public Answer post(String node, AdvertiseAddress address, String pathAndQuery, byte[] body) throws IOException, InterruptedException {
        OperatorSignature.Signed s = signature.sign(node, "POST", pathAndQuery, body, System.currentTimeMillis());
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://" + address.authority() + pathAndQuery)).timeout(timeout)
                .POST(body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        s.headers().forEach(r::header);
        HttpResponse<String> resp = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(resp.statusCode(), resp.body());
    }
}
