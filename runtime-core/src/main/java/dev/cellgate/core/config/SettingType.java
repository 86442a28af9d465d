package dev.cellgate.core.config;

import dev.cellgate.core.logic.EgressPolicy;
import dev.cellgate.core.spi.bucket.BucketUrl;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** How a setting's text is checked and turned into a value. Every check is strict: no silent fallback. */
public enum SettingType {
    /** An integer ≥ 1. */
    POSITIVE_INT("a positive integer"),
    /** An integer ≥ 0. */
    NON_NEGATIVE_INT("a non-negative integer"),
    /** {@code 0} or {@code 1} ({@code true}/{@code false} also in node.json). */
    BOOL("0 or 1"),
    /** {@code host:port} with a port in 0..65535. */
    ADDRESS("host:port"),
    /** {@code [A-Za-z0-9._-]{1,128}}. */
    NODE_ID("[A-Za-z0-9._-]{1,128}"),
    /** {@code scheme://bucket[/prefix]}. */
    BUCKET_URL("a bucket URL (file:///path, s3://bucket[/prefix], gs://bucket[/prefix])"),
    /** An absolute {@code http://} or {@code https://} URL with a host, no query or fragment. */
    HTTP_URL("an http:// or https:// URL with a host (no query or fragment)"),
    /** Any non-empty text. */
    TEXT("non-empty text"),
    /** {@code json} or {@code text}. */
    LOG_FORMAT("json or text"),
    /** A secret: at least 16 characters, no whitespace. Errors never show it. */
    SECRET("at least 16 characters without whitespace"),
    /** A Worker egress list ({@code EgressPolicy}): comma-separated IP, CIDR or host name entries, each with an optional :port. */
    EGRESS_LIST("comma-separated IP addresses, CIDR blocks or host names, each with an optional :port");

    private static final Pattern INTEGER = Pattern.compile("[+]?[0-9]{1,18}");
    private static final Pattern NODE = Pattern.compile("[A-Za-z0-9._-]{1,128}");

    private final String expected;

    SettingType(String expected) {
        this.expected = expected;
    }

    public String expected() {
        return expected;
    }

    /** Parses {@code text}; throws {@link IllegalArgumentException} saying what was expected. */
    public Object parse(String text) {
        if (text == null || text.isEmpty()) {
            throw bad();
        }
        String t = text.strip();
        if (!t.equals(text)) {
            throw bad();
        }
        return switch (this) {
            case POSITIVE_INT, NON_NEGATIVE_INT -> {
                if (!INTEGER.matcher(t).matches()) {
                    throw bad();
                }
                long v = Long.parseLong(t);
                if (v > Integer.MAX_VALUE || (this == POSITIVE_INT && v < 1)) {
                    throw bad();
                }
                yield (int) v;
            }
            case BOOL -> switch (t) {
                case "0" -> false;
                case "1" -> true;
                default -> throw bad();
            };
            case ADDRESS -> {
                parseAddress(t);
                yield t;
            }
            case NODE_ID -> {
                if (!NODE.matcher(t).matches()) {
                    throw bad();
                }
                yield t;
            }
            case BUCKET_URL -> {
                try {
                    BucketUrl.parse(t);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("must be " + expected + " (" + e.getMessage() + ")");
                }
                yield t;
            }
            case HTTP_URL -> {
                java.net.URI u;
                try {
                    u = new java.net.URI(t);
                } catch (java.net.URISyntaxException e) {
                    throw bad();
                }
                String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
                if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null || u.getRawQuery() != null
                        || u.getRawFragment() != null) {
                    throw bad();
                }
                yield t;
            }
            case TEXT -> t;
            case SECRET -> {
                if (t.length() < 16 || t.chars().anyMatch(Character::isWhitespace)) {
                    throw bad();
                }
                yield t;
            }
            case EGRESS_LIST -> {
                try {
                    EgressPolicy.parseList(t);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("must be " + expected + " (" + e.getMessage() + ")");
                }
                yield t;
            }
            case LOG_FORMAT -> {
                String v = t.toLowerCase(Locale.ROOT);
                if (!List.of("json", "text").contains(v)) {
                    throw bad();
                }
                yield v;
            }
        };
    }

    private IllegalArgumentException bad() {
        return new IllegalArgumentException("must be " + expected);
    }

    /** Splits {@code host:port} (IPv6 as {@code [::1]:8080}); throws when malformed. */
    public static HostPort parseAddress(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("must be host:port");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        String port = text.substring(colon + 1);
        if (host.isEmpty() || !port.matches("[0-9]{1,5}") || Integer.parseInt(port) > 65535) {
            throw new IllegalArgumentException("must be host:port");
        }
        return new HostPort(host, Integer.parseInt(port));
    }

    public record HostPort(String host, int port) {
        @Override
        public String toString() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }
}
