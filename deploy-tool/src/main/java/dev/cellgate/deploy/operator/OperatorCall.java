package dev.cellgate.deploy.operator;

import dev.cellgate.core.fleet.OperatorSignature;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.diagnose.AdvertiseAddress;
import io.vertx.core.json.JsonObject;
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

    /**
     * {@code POST} and the answer as a JSON object; no answer, an answer that is not JSON, or a status
     * other than 200 fail the command with a message naming the node, the path and the node's error.
     */
    public JsonObject postForJson(String node, AdvertiseAddress address, String pathAndQuery, byte[] body) {
        Answer a = postOrFail(node, address, pathAndQuery, body);
        JsonObject answer;
        try {
            answer = new JsonObject(a.body());
        } catch (RuntimeException e) {
            throw CommandException.failed("node " + node + " answered POST " + pathAndQuery + " with " + a.status() + ": " + a.body(), e);
        }
        if (a.status() != 200) {
            throw CommandException.failed("node " + node + " answered POST " + pathAndQuery + " with " + a.status() + ": "
                    + answer.getValue("error", a.body()), null);
        }
        return answer;
    }

    /** {@link #post}, with no answer (a lost connection, a timeout) failing the command by name. */
    public Answer postOrFail(String node, AdvertiseAddress address, String pathAndQuery, byte[] body) {
        try {
            return post(node, address, pathAndQuery, body);
        } catch (IOException e) {
            throw CommandException.failed("node " + node + " at " + address.authority() + " did not answer POST " + pathAndQuery + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CommandException.failed("interrupted", e);
        }
    }
}
