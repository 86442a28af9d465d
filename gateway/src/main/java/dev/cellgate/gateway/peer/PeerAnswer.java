package dev.cellgate.gateway.peer;

import dev.cellgate.core.cell.DrainingException;
import dev.cellgate.core.cell.NodeFullException;
import dev.cellgate.core.cell.OwnedElsewhereException;
import dev.cellgate.core.fleet.PeerSignature;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.gateway.http.Json;
import dev.cellgate.gateway.http.body.ResponseBodySubscriber;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Flow;

/**
 * The signed answer to one accepted peer request ({@link PeerAuth}): the status, the result
 * headers and the answer's envelope go out with {@code cg-peer-answer-mac} over them, the
 * request's nonce and the body's digest. A streamed body's digest is not known when the head
 * leaves, so its head says {@link PeerSignature#BODY_IN_TRAILER} and the digest and its MAC follow
 * as trailers; the caller fails the body if they do not match.
 */
final class PeerAnswer {
    private final PeerAuth auth;
    private final String nonce;
    private final HttpServerResponse response;

    PeerAnswer(PeerAuth auth, String nonce, HttpServerResponse response) {
        this.auth = auth;
        this.nonce = nonce;
        this.response = response;
    }

    /** The whole answer at once: {@code headers} are the result and envelope headers (and content-type). */
    void send(int status, MultiMap headers, byte[] body) {
        headers.set(PeerSignature.H_BODY, PeerSignature.sha256(body));
        sign(status, headers);
        response.end(Buffer.buffer(body));
    }

    /** A signed protocol refusal or other JSON answer (no result header). */
    void json(int status, JsonObject body) {
        send(status, MultiMap.caseInsensitiveMultiMap().add("content-type", "application/json"),
                body.encode().getBytes(StandardCharsets.UTF_8));
    }

    void refuse(int status, String reason) {
        json(status, Json.error(reason));
    }

    /** A body that streams: its digest and the MAC over it come as trailers. */
    void stream(int status, MultiMap headers, Flow.Publisher<ByteBuffer> body, Context context) {
        headers.set(PeerSignature.H_BODY, PeerSignature.BODY_IN_TRAILER);
        String mac = sign(status, headers);
        response.setChunked(true);
        body.subscribe(new DigestingSubscriber(new ResponseBodySubscriber(response, context), hash -> {
            String bodyMac = auth.bodyMac(nonce, mac, hash);
            // Queued on the response's context before the end the writer queues: the trailers go out with the last chunk.
            context.runOnContext(v -> {
                if (!response.ended()) {
                    response.putTrailer(PeerSignature.H_BODY, hash).putTrailer(PeerSignature.H_BODY_MAC, bodyMac);
                }
            });
            return null;
        }));
    }

    /** Headers for an answer with this result. */
    static MultiMap result(String result) {
        return MultiMap.caseInsensitiveMultiMap().add(PeerWire.H_RESULT, result);
    }

    /** The answer for a call that failed here: what happened says whether it ran. */
    void failure(Throwable e) {
        Throwable c = e;
        while (c instanceof java.util.concurrent.CompletionException && c.getCause() != null) {
            c = c.getCause();
        }
        String text = String.valueOf(c.getMessage() == null ? c.toString() : c.getMessage());
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        if (c instanceof OwnedElsewhereException o) {
            send(409, result(PeerWire.NOT_OWNER).add(PeerWire.H_OWNER, o.node()), body);
        } else if (c instanceof DrainingException) {
            draining(text);
        } else if (c instanceof NodeFullException) {
            send(503, result(PeerWire.UNAVAILABLE).add(PeerWire.H_RETRYABLE, "1"), body);
        } else if (c instanceof StubCallException s) {
            send(503, result(PeerWire.UNAVAILABLE).add(PeerWire.H_RETRYABLE, s.retryable() ? "1" : "0"), body);
        } else {
            send(500, result(PeerWire.EXCEPTION), body);
        }
    }

    /** This node takes no new work (its cells are being handed off): the caller resolves again. */
    void draining(String text) {
        send(503, result(PeerWire.DRAINING).add("retry-after", "1"), text.getBytes(StandardCharsets.UTF_8));
    }

    /** Puts the headers and their MAC on the response; returns the MAC. */
    private String sign(int status, MultiMap headers) {
        String mac = auth.answerMac(nonce, PeerWire.answerOf(status, headers::get));
        response.setStatusCode(status).headers().addAll(headers);
        response.putHeader(PeerSignature.H_ANSWER_MAC, mac);
        return mac;
    }

    /** The headers an upgrade answer (101) carries, signed: {@code headers} gets the MAC. */
    static void signUpgrade(PeerAuth auth, String nonce, MultiMap headers) {
        headers.set(PeerSignature.H_BODY, PeerSignature.sha256(null));
        headers.set(PeerSignature.H_ANSWER_MAC, auth.answerMac(nonce, PeerWire.answerOf(101, headers::get)));
    }
}
