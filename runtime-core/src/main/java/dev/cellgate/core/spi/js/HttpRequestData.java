package dev.cellgate.core.spi.js;

import java.util.List;
import java.util.Map;

/**
 * A request entering a Worker or a Durable Object.
 *
 * @param method    upper-case HTTP method
 * @param url       absolute URL as the Worker sees it ({@code request.url})
 * @param headers   header name/value pairs in arrival order (names lower case)
 * @param body      the body
 * @param requestId the id every log line of this request carries
 * @param cf        {@code request.cf} as JSON for a request from a client (see {@code RequestCf}), or null
 */
public record HttpRequestData(String method, String url, List<Map.Entry<String, String>> headers, Body body, String requestId,
                              String cf) {
    public HttpRequestData {
        headers = List.copyOf(headers);
    }

    /** A request without {@code cf} (from a stub, a peer, a test). */
    public HttpRequestData(String method, String url, List<Map.Entry<String, String>> headers, Body body, String requestId) {
        this(method, url, headers, body, requestId, null);
    }

    /** The same request with {@code request.cf}. */
    public HttpRequestData withCf(String cfJson) {
        return new HttpRequestData(method, url, headers, body, requestId, cfJson);
    }

    /** First value of a header, or null. */
    public String header(String name) {
        for (Map.Entry<String, String> h : headers) {
            if (h.getKey().equalsIgnoreCase(name)) {
                return h.getValue();
            }
        }
        return null;
    }
}
