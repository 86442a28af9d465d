package dev.cellgate.js.graal.host.cache;

import dev.cellgate.core.logic.ByteRanges;
import dev.cellgate.core.logic.CacheConditions;
import dev.cellgate.core.logic.HttpCachePolicy;
import dev.cellgate.js.graal.host.HeaderLines;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * What {@code cache.js} asks of the node's cache: store a response under a cache name and key
 * (the decision is {@link HttpCachePolicy}'s), answer a match as workerd's local cache does
 * ({@code cf-cache-status: HIT}, ranges as {@link ByteRanges} reads them, 304 when
 * {@link CacheConditions} says so), delete. One per context, over the engine's {@link NodeCache}.
 */
public final class CacheHost {
    private final NodeCache cache;
    private final LongSupplier clock;

    public CacheHost(NodeCache cache, LongSupplier clock) {
        this.cache = cache;
        this.clock = clock;
    }

    /** Whether the response was stored (a response the rules refuse is dropped, as workerd's put resolves anyway). */
    @HostAccess.Export
    public boolean put(String cacheName, String key, int status, String headerLines, Value buffer, int offset, int length,
                       boolean requestHasAuthorization, boolean knownLength) {
        long now = clock.getAsLong();
        List<Map.Entry<String, String>> headers = HeaderLines.decode(headerLines);
        HttpCachePolicy.Decision d = HttpCachePolicy.decide(status, headers, requestHasAuthorization, now);
        if (!d.stored()) {
            return false;
        }
        byte[] body = new byte[length];
        if (length > 0) {
            buffer.readBuffer(offset, body, 0, length);
        }
        List<Map.Entry<String, String>> stored = new ArrayList<>(d.headers());
        if (knownLength && stored.stream().noneMatch(h -> h.getKey().equals("content-length"))) {
            stored.add(Map.entry("content-length", Integer.toString(length)));
        }
        return cache.put(cacheName + "\n" + key, new NodeCache.Entry(status, List.copyOf(stored), body, now + d.ttlMs()));
    }

    @HostAccess.Export
    public boolean delete(String cacheName, String key) {
        return cache.delete(cacheName + "\n" + key, clock.getAsLong());
    }

    /** The answer to a match, or null for a miss. */
    @HostAccess.Export
    public Match match(String cacheName, String key, String range, String ifNoneMatch, String ifModifiedSince) {
        NodeCache.Entry e = cache.get(cacheName + "\n" + key, clock.getAsLong());
        if (e == null) {
            return null;
        }
        List<Map.Entry<String, String>> headers = new ArrayList<>(e.headers());
        headers.add(Map.entry("cf-cache-status", "HIT"));
        List<ByteRanges.Range> ranges = List.of();
        if (range != null) {
            ranges = ByteRanges.parse(range, e.body().length);
            if (ranges == null) {
                return new Match(416, List.of(Map.entry("content-range", "bytes */" + e.body().length), Map.entry("cf-cache-status", "HIT")),
                        new byte[0]);
            }
        }
        if (CacheConditions.notModified(ifNoneMatch, header(headers, "etag"), ifModifiedSince, header(headers, "last-modified"))) {
            return new Match(304, headers, null);
        }
        if (ranges.isEmpty()) {
            return new Match(e.status(), headers, e.body());
        }
        if (ranges.size() == 1) {
            ByteRanges.Range r = ranges.get(0);
            set(headers, "content-range", "bytes " + r.start() + "-" + r.end() + "/" + e.body().length);
            set(headers, "content-length", Long.toString(r.length()));
            byte[] part = new byte[(int) r.length()];
            System.arraycopy(e.body(), (int) r.start(), part, 0, part.length);
            return new Match(206, headers, part);
        }
        String boundary = "cellgate-boundary-" + UUID.randomUUID();
        String type = header(headers, "content-type");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteRanges.Range r : ranges) {
            StringBuilder head = new StringBuilder("--").append(boundary).append("\r\n");
            if (type != null) {
                head.append("Content-Type: ").append(type).append("\r\n");
            }
            head.append("Content-Range: bytes ").append(r.start()).append('-').append(r.end()).append('/').append(e.body().length).append("\r\n\r\n");
            out.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
            out.write(e.body(), (int) r.start(), (int) r.length());
            out.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        out.writeBytes(("--" + boundary + "--").getBytes(StandardCharsets.UTF_8));
        set(headers, "content-type", "multipart/byteranges; boundary=" + boundary);
        return new Match(206, headers, out.toByteArray());
    }

    private static String header(List<Map.Entry<String, String>> headers, String name) {
        for (Map.Entry<String, String> h : headers) {
            if (h.getKey().toLowerCase(Locale.ROOT).equals(name)) {
                return h.getValue();
            }
        }
        return null;
    }

    private static void set(List<Map.Entry<String, String>> headers, String name, String value) {
        headers.removeIf(h -> h.getKey().equals(name));
        headers.add(Map.entry(name, value));
    }

    /** A match's status, headers and body (null body for 304). */
    public static final class Match {
        private final int status;
        private final List<Map.Entry<String, String>> headers;
        private final byte[] body;

        Match(int status, List<Map.Entry<String, String>> headers, byte[] body) {
            this.status = status;
            this.headers = headers;
            this.body = body;
        }

        @HostAccess.Export
        public int status() {
            return status;
        }

        @HostAccess.Export
        public String headerLines() {
            return HeaderLines.encode(headers);
        }

        @HostAccess.Export
        public ByteBuffer body() {
            return body == null ? null : ByteBuffer.wrap(body);
        }
    }
}
