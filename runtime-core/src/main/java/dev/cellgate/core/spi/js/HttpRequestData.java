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
 */
public record HttpRequestData(String method, String url, List<Map.Entry<String, String>> headers, Body body, String requestId) {
    public HttpRequestData {
        headers = List.copyOf(headers);
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
