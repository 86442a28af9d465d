package dev.cellgate.core.logic;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Whether a response given to {@code cache.put()} is stored by a shared cache, for how long, and
 * with which headers — the rules of the Workers cache as miniflare (workerd's local cache) applies
 * them, which are RFC 9111's for a shared cache (the {@code http-cache-semantics} rules): GET only
 * (checked by the caller), understood statuses, no {@code no-store}, no {@code private}, an
 * {@code Authorization} request only with {@code public}/{@code s-maxage}/{@code must-revalidate},
 * freshness from {@code s-maxage}, {@code max-age}, {@code Expires} or 10% of the age since
 * {@code Last-Modified}, extended by {@code stale-while-revalidate}/{@code stale-if-error};
 * {@code Set-Cookie} is never stored unless {@code Cache-Control: private=Set-Cookie} asks for the
 * cookie to be dropped. Pure: the time is an argument.
 */
public final class HttpCachePolicy {
    // 204 is "understood" by RFC 9111, but a null-body response never reaches workerd's cache store
    private static final Set<Integer> UNDERSTOOD = Set.of(200, 203, 300, 301, 302, 303, 307, 308, 404, 405, 410, 414, 501);
    private static final Set<Integer> CACHEABLE_BY_DEFAULT = Set.of(200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501);
    private static final Set<String> HOP_BY_HOP = Set.of("date", "connection", "keep-alive", "proxy-authenticate", "proxy-authorization",
            "te", "trailer", "transfer-encoding", "upgrade");
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME;

    private HttpCachePolicy() {
    }

    /**
     * The decision: {@code ttlMs} 0 means not stored (or stale at once); {@code headers} are those a
     * later match answers with (hop-by-hop headers dropped, {@code age} and {@code date} set).
     */
    public record Decision(boolean storable, long ttlMs, List<Map.Entry<String, String>> headers) {
        public boolean stored() {
            return storable && ttlMs > 0;
        }
    }

    /**
     * @param status           the response status
     * @param responseHeaders  its headers (any case)
     * @param requestHasAuth   whether the request carried {@code Authorization}
     * @param nowMs            the time of the put
     */
    public static Decision decide(int status, List<Map.Entry<String, String>> responseHeaders, boolean requestHasAuth, long nowMs) {
        Map<String, String> h = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : responseHeaders) {
            String k = e.getKey().toLowerCase(Locale.ROOT);
            h.merge(k, e.getValue(), (a, b) -> k.equals("set-cookie") ? a + ", " + b : a + ", " + b);
        }
        String cc = h.get("cache-control");
        if (cc != null && cc.toLowerCase(Locale.ROOT).contains("private=set-cookie")) {
            // the cookie is dropped and the response cached without it (miniflare edits the directive out)
            cc = cc.toLowerCase(Locale.ROOT).replaceFirst("private=set-cookie;?", "");
            h.put("cache-control", cc.strip());
            h.remove("set-cookie");
        }
        Map<String, String> rescc = parseCacheControl(cc);
        if (cc == null && h.getOrDefault("pragma", "").contains("no-cache")) {
            rescc.put("no-cache", "true");
        }
        boolean storable = UNDERSTOOD.contains(status) && !set(rescc, "no-store") && !set(rescc, "private")
                && (!requestHasAuth || set(rescc, "must-revalidate") || set(rescc, "public") || set(rescc, "s-maxage"))
                && (h.containsKey("expires") || set(rescc, "max-age") || set(rescc, "s-maxage") || set(rescc, "public")
                || CACHEABLE_BY_DEFAULT.contains(status))
                && !h.containsKey("set-cookie");
        double age = toNumberOrZero(h.get("age"));
        double maxAge = storable ? maxAge(h, rescc, nowMs) : 0;
        double fresh = maxAge - age;
        double ttl = Math.max(0, Math.max(fresh, Math.max(fresh + toNumberOrZero(rescc.get("stale-if-error")),
                fresh + toNumberOrZero(rescc.get("stale-while-revalidate")))));
        List<Map.Entry<String, String>> stored = new ArrayList<>();
        for (Map.Entry<String, String> e : h.entrySet()) {
            if (!HOP_BY_HOP.contains(e.getKey()) && !e.getKey().equals("age")) {
                stored.add(Map.entry(e.getKey(), e.getValue()));
            }
        }
        stored.add(Map.entry("age", Long.toString(Math.round(age))));
        stored.add(Map.entry("date", httpDate(nowMs)));
        return new Decision(storable, (long) (ttl * 1000), List.copyOf(stored));
    }

    private static double maxAge(Map<String, String> h, Map<String, String> rescc, long nowMs) {
        if (set(rescc, "no-cache") || "*".equals(h.get("vary")) || set(rescc, "proxy-revalidate")) {
            return 0;
        }
        if (set(rescc, "s-maxage")) {
            return toNumberOrZero(rescc.get("s-maxage"));
        }
        if (set(rescc, "max-age")) {
            return toNumberOrZero(rescc.get("max-age"));
        }
        double defaultMin = set(rescc, "immutable") ? 24 * 3600 : 0;
        long serverDate = parseDate(h.get("date"), nowMs);
        if (h.containsKey("expires")) {
            long expires = parseDate(h.get("expires"), Long.MIN_VALUE);
            return expires == Long.MIN_VALUE || expires < serverDate ? 0 : Math.max(defaultMin, (expires - serverDate) / 1000.0);
        }
        if (h.containsKey("last-modified")) {
            long lm = parseDate(h.get("last-modified"), Long.MIN_VALUE);
            if (lm != Long.MIN_VALUE && serverDate > lm) {
                return Math.max(defaultMin, (serverDate - lm) / 1000.0 * 0.1);
            }
        }
        return defaultMin;
    }

    /**
     * Whether a directive is given: a bare directive counts, one with an empty value ({@code max-age=})
     * does not (the rules miniflare applies test the parsed value for truthiness).
     */
    private static boolean set(Map<String, String> cc, String k) {
        String v = cc.get(k);
        return v != null && !v.isEmpty();
    }

    static Map<String, String> parseCacheControl(String header) {
        Map<String, String> cc = new HashMap<>();
        if (header == null || header.isBlank()) {
            return cc;
        }
        for (String part : header.strip().split(",")) {
            int eq = part.indexOf('=');
            String k = (eq < 0 ? part : part.substring(0, eq)).strip();
            String v = eq < 0 ? "" : part.substring(eq + 1).strip();
            if (v.startsWith("\"")) {
                v = v.substring(1);
            }
            if (v.endsWith("\"")) {
                v = v.substring(0, v.length() - 1);
            }
            cc.put(k, eq < 0 ? "true" : v);
        }
        return cc;
    }

    /** JavaScript's parseInt, 0 when it is not a number. */
    static double toNumberOrZero(String s) {
        if (s == null) {
            return 0;
        }
        String t = s.strip();
        int i = 0;
        boolean neg = false;
        if (i < t.length() && (t.charAt(i) == '-' || t.charAt(i) == '+')) {
            neg = t.charAt(i) == '-';
            i++;
        }
        long v = 0;
        int start = i;
        while (i < t.length() && Character.isDigit(t.charAt(i)) && i - start < 15) {
            v = v * 10 + (t.charAt(i) - '0');
            i++;
        }
        return i == start ? 0 : (neg ? -v : v);
    }

    /** An HTTP date (RFC 1123), or {@code otherwise}. */
    public static long parseDate(String s, long otherwise) {
        if (s == null) {
            return otherwise;
        }
        try {
            return ZonedDateTime.parse(s.strip(), HTTP_DATE).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            return otherwise;
        }
    }

    public static String httpDate(long ms) {
        return HTTP_DATE.format(Instant.ofEpochMilli(ms).atZone(ZoneOffset.UTC));
    }
}
