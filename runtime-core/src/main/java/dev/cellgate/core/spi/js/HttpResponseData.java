package dev.cellgate.core.spi.js;

import java.util.List;
import java.util.Map;

/**
 * A response leaving a Worker or a Durable Object.
 *
 * @param status     HTTP status
 * @param statusText reason phrase, or empty for the default
 * @param headers    header name/value pairs (a name may repeat, e.g. set-cookie)
 * @param body       the body
 * @param webSocket  with status 101: the WebSocket end the caller connects to its client (a Worker's
 *                   {@code new Response(null, {status: 101, webSocket})}); otherwise null
 */
public record HttpResponseData(int status, String statusText, List<Map.Entry<String, String>> headers, Body body,
                               WebSocketEnd webSocket) {
    public HttpResponseData {
        headers = List.copyOf(headers);
        if (webSocket != null && status != 101) {
            throw new IllegalArgumentException("a response with a WebSocket has status 101, not " + status);
        }
    }

    /** A response without a WebSocket. */
    public HttpResponseData(int status, String statusText, List<Map.Entry<String, String>> headers, Body body) {
        this(status, statusText, headers, body, null);
    }

    public static HttpResponseData text(int status, String text) {
        return new HttpResponseData(status, "",
                List.of(Map.entry("content-type", "text/plain;charset=UTF-8")),
                Body.of(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
