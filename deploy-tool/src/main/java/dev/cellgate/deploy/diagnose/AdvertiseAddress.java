package dev.cellgate.deploy.diagnose;

import java.util.Locale;

/**
 * A node's advertised internal address ({@code host:port}, {@code [v6]:port}) and what kind of
 * host it names, judged from the literal alone (no DNS: that is the caller's business).
 */
public record AdvertiseAddress(String host, int port, Kind kind) {

    public enum Kind {
        /** 0.0.0.0 or :: — a bind-all address; nobody can connect to it as a destination. */
        WILDCARD,
        /** 127.0.0.0/8, ::1, localhost — reachable only from the same host. */
        LOOPBACK,
        /** Anything else: a routable address or a host name. */
        OTHER
    }

    /** Parses {@code advertise}; throws {@link IllegalArgumentException} saying what is wrong. */
    public static AdvertiseAddress parse(String advertise) {
        if (advertise == null || advertise.isBlank()) {
            throw new IllegalArgumentException("empty advertise address");
        }
        String host;
        String port;
        if (advertise.startsWith("[")) {
            int close = advertise.indexOf(']');
            if (close < 0 || close + 1 >= advertise.length() || advertise.charAt(close + 1) != ':') {
                throw new IllegalArgumentException("advertise address '" + advertise + "' is not [v6-address]:port");
            }
            host = advertise.substring(1, close);
            port = advertise.substring(close + 2);
        } else {
            int colon = advertise.lastIndexOf(':');
            if (colon <= 0 || advertise.indexOf(':') != colon) {
                throw new IllegalArgumentException("advertise address '" + advertise + "' is not host:port");
            }
            host = advertise.substring(0, colon);
            port = advertise.substring(colon + 1);
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("advertise address '" + advertise + "' has no numeric port");
        }
        if (p < 1 || p > 65535) {
            throw new IllegalArgumentException("advertise address '" + advertise + "' has port " + p + " (want 1-65535)");
        }
        return new AdvertiseAddress(host, p, kindOf(host));
    }

    static Kind kindOf(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.equals("0.0.0.0") || h.equals("::") || h.matches("(0{1,4}:){7}0{1,4}") || h.equals("0:0:0:0:0:0:0:0")) {
            return Kind.WILDCARD;
        }
        if (h.equals("localhost") || h.endsWith(".localhost") || h.equals("::1") || h.matches("(0{1,4}:){7}0{0,3}1")
                || h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}")) {
            return Kind.LOOPBACK;
        }
        return Kind.OTHER;
    }

    /** {@code host:port} as a URI authority (brackets around a v6 literal). */
    public String authority() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
