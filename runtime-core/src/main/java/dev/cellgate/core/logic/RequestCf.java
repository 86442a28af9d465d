package dev.cellgate.core.logic;

import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code request.cf} of an incoming request, from what a self-hosted node can know: the HTTP
 * version it spoke, the TLS protocol and cipher when TLS ends at the node, and — only when
 * {@code CELLD_CF_HEADERS} names them — geography and network fields a trusted load balancer put in
 * request headers. Without that setting no header is ever read into {@code cf}: a client could send
 * them. {@code CELLD_CF_HEADERS} is {@code field=header,...} (e.g. {@code country=x-geo-country,asn=x-asn})
 * or {@code cloudflare} for the headers Cloudflare itself adds in front of an origin
 * ({@code cf-ipcountry} and the visitor-location headers). Pure.
 */
public final class RequestCf {
    /** The fields a balancer may supply; {@code asn} and {@code metroCode}... as Cloudflare types them. */
    static final Set<String> FIELDS = Set.of("asn", "asOrganization", "colo", "country", "isEUCountry", "city", "continent", "region",
            "regionCode", "postalCode", "metroCode", "latitude", "longitude", "timezone");
    private static final Map<String, String> CLOUDFLARE = new LinkedHashMap<>();

    static {
        CLOUDFLARE.put("country", "cf-ipcountry");
        CLOUDFLARE.put("city", "cf-ipcity");
        CLOUDFLARE.put("continent", "cf-ipcontinent");
        CLOUDFLARE.put("latitude", "cf-iplatitude");
        CLOUDFLARE.put("longitude", "cf-iplongitude");
        CLOUDFLARE.put("region", "cf-region");
        CLOUDFLARE.put("regionCode", "cf-region-code");
        CLOUDFLARE.put("metroCode", "cf-metro-code");
        CLOUDFLARE.put("postalCode", "cf-postal-code");
        CLOUDFLARE.put("timezone", "cf-timezone");
    }

    public static final RequestCf NONE = new RequestCf(Map.of());
    /** A broken variant for the negative control of the default (tests only): reads Cloudflare's headers unasked. */
    public static final RequestCf TRUSTING_FOR_NEGATIVE_CONTROL = new RequestCf(Map.copyOf(CLOUDFLARE));

    private final Map<String, String> headerByField;
    private static final Map<String, String> PROTOCOL_ONLY = new java.util.concurrent.ConcurrentHashMap<>();

    private RequestCf(Map<String, String> headerByField) {
        this.headerByField = headerByField;
    }

    /** The fields read from headers, field to (lower-case) header name. */
    public Map<String, String> mapping() {
        return headerByField;
    }

    /** Parses {@code CELLD_CF_HEADERS}; an {@link IllegalArgumentException} says what is wrong. */
    public static RequestCf parse(String spec) {
        if (spec == null || spec.isBlank()) {
            return NONE;
        }
        if (spec.strip().equals("cloudflare")) {
            return new RequestCf(Map.copyOf(CLOUDFLARE));
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (String pair : spec.split(",")) {
            int eq = pair.indexOf('=');
            String field = eq < 0 ? pair.strip() : pair.substring(0, eq).strip();
            String header = eq < 0 ? "" : pair.substring(eq + 1).strip().toLowerCase(Locale.ROOT);
            if (!FIELDS.contains(field)) {
                throw new IllegalArgumentException("unknown request.cf field '" + field + "' (known: " + String.join(", ", FIELDS.stream().sorted().toList())
                        + "; or the preset 'cloudflare')");
            }
            if (header.isEmpty() || !header.chars().allMatch(c -> c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)) {
                throw new IllegalArgumentException("field '" + field + "' needs a header name (field=header)");
            }
            if (m.put(field, header) != null) {
                throw new IllegalArgumentException("field '" + field + "' is mapped twice");
            }
        }
        return new RequestCf(Map.copyOf(m));
    }

    /**
     * The {@code cf} object as JSON.
     *
     * @param httpProtocol {@code HTTP/1.1}, {@code HTTP/2}...
     * @param tlsVersion   the TLS protocol when TLS ended at this node, else null (then no TLS fields)
     * @param tlsCipher    its cipher suite, or null
     * @param headers      the request's headers (names lower case)
     */
    public String json(String httpProtocol, String tlsVersion, String tlsCipher, List<Map.Entry<String, String>> headers) {
        if (tlsVersion == null && headerByField.isEmpty()) {
            // the common case (no TLS here, no balancer headers): one answer per protocol, built once
            return PROTOCOL_ONLY.computeIfAbsent(httpProtocol, p -> new JsonObject().put("httpProtocol", p).encode());
        }
        JsonObject cf = new JsonObject().put("httpProtocol", httpProtocol);
        if (tlsVersion != null) {
            cf.put("tlsVersion", tlsVersion);
            if (tlsCipher != null) {
                cf.put("tlsCipher", tlsCipher);
            }
        }
        for (Map.Entry<String, String> f : headerByField.entrySet()) {
            String v = first(headers, f.getValue());
            if (v == null || v.isBlank()) {
                continue;
            }
            v = v.strip();
            if (f.getKey().equals("asn")) {
                try {
                    cf.put("asn", Long.parseLong(v));
                } catch (NumberFormatException e) {
                    // not a number: Cloudflare's asn is one, so the field stays absent
                }
            } else {
                cf.put(f.getKey(), v);
            }
        }
        return cf.encode();
    }

    private static String first(List<Map.Entry<String, String>> headers, String name) {
        for (Map.Entry<String, String> h : headers) {
            if (h.getKey().equals(name)) {
                return h.getValue();
            }
        }
        return null;
    }
}
