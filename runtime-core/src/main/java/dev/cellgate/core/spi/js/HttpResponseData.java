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
 */
public record HttpResponseData(int status, String statusText, List<Map.Entry<String, String>> headers, Body body) {
    public HttpResponseData {
        headers = List.copyOf(headers);
    }

    public static HttpResponseData text(int status, String text) {
        return new HttpResponseData(status, "",
                List.of(Map.entry("content-type", "text/plain;charset=UTF-8")),
                Body.of(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
