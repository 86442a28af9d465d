package dev.cellgate.gateway.faults;

import java.net.URI;

/**
 * One S3 request as a fault rule sees it (path-style addressing, which a custom endpoint uses).
 *
 * @param key the object key inside the bucket, decoded, with the fleet's URL prefix still on it
 *            ("" for bucket-level requests such as a listing)
 * @param query the raw query string ("" when none)
 * @param conditional an If-Match or If-None-Match write: create-only or compare-and-swap
 */
public record S3Call(String method, String bucket, String key, String query, boolean conditional) {

    static S3Call of(HttpWire.Head head) {
        String[] parts = head.startLine().split(" ", 3);
        if (parts.length != 3) {
            throw new IllegalStateException("not a request line: '" + head.startLine() + "'");
        }
        URI target = URI.create("http://proxy" + parts[1]);
        String path = target.getPath() == null ? "" : target.getPath();
        String trimmed = path.startsWith("/") ? path.substring(1) : path;
        int slash = trimmed.indexOf('/');
        String bucket = slash < 0 ? trimmed : trimmed.substring(0, slash);
        String key = slash < 0 ? "" : trimmed.substring(slash + 1);
        boolean conditional = head.header("if-match") != null || head.header("if-none-match") != null;
        return new S3Call(parts[0], bucket, key, target.getRawQuery() == null ? "" : target.getRawQuery(), conditional);
    }

    /** PUT, POST and DELETE change the bucket; an answer lost after one of them is ambiguous. */
    public boolean isWrite() {
        return method.equals("PUT") || method.equals("POST") || method.equals("DELETE");
    }

    /** The object key, or for a listing the prefix it lists. */
    public String subject() {
        if (!key.isEmpty()) {
            return key;
        }
        for (String p : query.split("&")) {
            if (p.startsWith("prefix=")) {
                return java.net.URLDecoder.decode(p.substring("prefix=".length()), java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        return "";
    }

    /** True when the subject, after the fleet's prefix (if any), starts with {@code bucketPrefix} (e.g. "nodes/"). */
    public boolean under(String bucketPrefix) {
        String s = subject();
        return s.startsWith(bucketPrefix) || s.contains("/" + bucketPrefix);
    }

    /** An object key of the record kind {@code suffix} under {@code cells/} (e.g. "/own.json"). */
    public boolean isCellRecord(String suffix) {
        return under("cells/") && key.endsWith(suffix);
    }

    @Override
    public String toString() {
        return method + " " + key + (query.isEmpty() ? "" : "?" + query) + (conditional ? " (conditional)" : "");
    }
}
