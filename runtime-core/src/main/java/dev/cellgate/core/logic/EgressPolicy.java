package dev.cellgate.core.logic;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where a Worker may connect ({@code fetch}, outbound WebSockets, {@code connect}; SPEC §19). The
 * decision is made on the RESOLVED address the connection goes to, so a DNS name pointing at
 * 127.0.0.1 is refused like the literal. Refused by default: loopback (127.0.0.0/8, ::1), link-local
 * (169.254.0.0/16 with the cloud metadata service 169.254.169.254, fe80::/10), unspecified addresses
 * (0.0.0.0/8, ::), the cloud metadata services outside link-local (fd00:ec2::254, 100.100.100.200),
 * this node's own listeners and every peer's advertised address. Private ranges stay reachable
 * (self-hosted apps call internal services). {@code CELLD_EGRESS_ALLOW} lifts the default refusals for
 * what it lists; {@code CELLD_EGRESS_DENY} refuses more, and wins over the allow list.
 *
 * <p>A list is comma-separated entries: an IP address, a CIDR block ({@code 10.0.0.0/8},
 * {@code fe80::/10}), a host name ({@code api.internal}) or a subdomain pattern
 * ({@code *.svc.cluster.local}), each with an optional {@code :port} ({@code 127.0.0.1:8080},
 * {@code [::1]:8080}, {@code [fd00::/8]:443}). A host-name entry matches the name in the URL (an
 * operator who allows a name trusts what it resolves to); an address entry matches the address.
 *
 * <p>No I/O: literals are parsed without DNS, and the caller resolves names and passes addresses.
 */
public final class EgressPolicy {
    /** The settings that change the decision, named in every refusal. */
    public static final String ALLOW_SETTING = "CELLD_EGRESS_ALLOW";
    public static final String DENY_SETTING = "CELLD_EGRESS_DENY";

    /** The default: nothing allowed beyond the rules, nothing denied beyond them. */
    public static final EgressPolicy DEFAULT = new EgressPolicy(List.of(), List.of());

    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");
    private static final Pattern HOST = Pattern.compile("(\\*\\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*");

    private static final List<Rule> LOOPBACK = rules("127.0.0.0/8,::1/128");
    private static final List<Rule> LINK_LOCAL = rules("169.254.0.0/16,fe80::/10");
    private static final List<Rule> UNSPECIFIED = rules("0.0.0.0/8,::/128");
    private static final List<Rule> METADATA = rules("fd00:ec2::254/128,100.100.100.200/32");

    private final List<Rule> allow;
    private final List<Rule> deny;
    private final boolean namesUnchecked;

    public EgressPolicy(List<Rule> allow, List<Rule> deny) {
        this(allow, deny, false);
    }

    private EgressPolicy(List<Rule> allow, List<Rule> deny, boolean namesUnchecked) {
        this.allow = List.copyOf(allow);
        this.deny = List.copyOf(deny);
        this.namesUnchecked = namesUnchecked;
    }

    /**
     * Deliberately broken: judges the URL's host only when it is an address literal, so a name that
     * resolves to loopback or the metadata service passes (the classic bypass). {@code EgressTest}
     * proves that its name-resolving check catches it.
     */
    public EgressPolicy judgingLiteralsOnly() {
        return new EgressPolicy(allow, deny, true);
    }

    /** Parses both settings' text (null or empty: no entries); throws {@link IllegalArgumentException} naming the bad entry. */
    public static EgressPolicy of(String allowList, String denyList) {
        return new EgressPolicy(parseList(allowList), parseList(denyList));
    }

    /**
     * One list entry: an address block ({@code network} non-null) or a host name ({@code host}
     * non-null; {@code subdomains} for {@code *.name}), and a port ({@code -1}: any).
     */
    public record Rule(String text, byte[] network, int prefixBits, String host, boolean subdomains, int port) {
        boolean matches(Destination d) {
            if (port >= 0 && port != d.port()) {
                return false;
            }
            if (host != null) {
                String h = d.host();
                return h != null && (subdomains ? h.endsWith("." + host) : h.equals(host));
            }
            byte[] a = canonical(d.address()).getAddress();
            if (a.length != network.length) {
                return false;
            }
            int full = prefixBits / 8;
            for (int i = 0; i < full; i++) {
                if (a[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefixBits % 8;
            return rest == 0 || ((a[full] ^ network[full]) & (0xff << (8 - rest)) & 0xff) == 0;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /**
     * Where a connection goes.
     *
     * @param host    the host as the URL names it (lower case, no brackets, no trailing dot)
     * @param address the address it resolved to and the connection will use
     * @param port    the port
     */
    public record Destination(String host, InetAddress address, int port) {
        public Destination {
            host = host == null ? null : normalHost(host);
        }

        @Override
        public String toString() {
            String a = address.getHostAddress();
            String shown = a.contains(":") ? "[" + a + "]:" + port : a + ":" + port;
            return host == null || host.equals(a) || host.equals(canonical(address).getHostAddress()) ? shown : host + " (" + shown + ")";
        }
    }

    /** An address and port a connection could reach: one of this node's listeners or a peer's advertised address. */
    public record Endpoint(InetAddress address, int port, String what) {
    }

    /** The answer: allowed, or refused with a reason an operator can act on. */
    public record Verdict(boolean allowed, String reason) {
        static final Verdict ALLOWED = new Verdict(true, null);
    }

    /**
     * @param own   this node's listeners (a wildcard bind expanded to the host's addresses by the caller)
     * @param peers every peer's advertised address, resolved
     */
    public Verdict decide(Destination d, Collection<Endpoint> own, Collection<Endpoint> peers) {
        if (namesUnchecked && d.host() != null && literal(d.host()) == null) {
            return Verdict.ALLOWED; // the broken variant
        }
        for (Rule r : deny) {
            if (r.matches(d)) {
                return refused(d, "it matches " + DENY_SETTING + " entry '" + r + "'", false);
            }
        }
        for (Rule r : allow) {
            if (r.matches(d)) {
                return Verdict.ALLOWED;
            }
        }
        InetAddress a = canonical(d.address());
        // the most specific reason first: "this node's internal listener" says more than "loopback"
        for (Endpoint e : own) {
            if (e.port() == d.port() && canonical(e.address()).equals(a)) {
                return refused(d, "it is this node's " + e.what(), true);
            }
        }
        for (Endpoint e : peers) {
            if (e.port() == d.port() && canonical(e.address()).equals(a)) {
                return refused(d, "it is " + e.what(), true);
            }
        }
        if (any(LOOPBACK, d)) {
            return refused(d, a.getHostAddress() + " is a loopback address", true);
        }
        if (any(LINK_LOCAL, d)) {
            return refused(d, a.getHostAddress() + " is a link-local address" + (a.getHostAddress().equals("169.254.169.254")
                    ? " (the cloud metadata service)" : ""), true);
        }
        if (any(UNSPECIFIED, d)) {
            return refused(d, a.getHostAddress() + " is an unspecified (any) address", true);
        }
        if (any(METADATA, d)) {
            return refused(d, a.getHostAddress() + " is a cloud metadata service", true);
        }
        return Verdict.ALLOWED;
    }

    private static boolean any(List<Rule> rules, Destination d) {
        for (Rule r : rules) {
            if (r.matches(d)) {
                return true;
            }
        }
        return false;
    }

    private static Verdict refused(Destination d, String why, boolean allowable) {
        return new Verdict(false, "connection to " + d + " refused: " + why + (allowable
                ? "; list it in " + ALLOW_SETTING + " to allow it" : ""));
    }

    /**
     * IPv4-compatible IPv6 addresses ({@code ::127.0.0.1}) are judged as the IPv4 address they carry
     * (IPv4-mapped ones, {@code ::ffff:127.0.0.1}, are IPv4 already in Java). {@code ::} and
     * {@code ::1} stay IPv6.
     */
    static InetAddress canonical(InetAddress a) {
        if (a instanceof Inet6Address v6 && v6.isIPv4CompatibleAddress() && v6.getAddress()[12] != 0) {
            byte[] b = v6.getAddress();
            try {
                return InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]});
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }
        return a;
    }

    /** Parses a list setting; null or blank is the empty list. */
    public static List<Rule> parseList(String text) {
        List<Rule> out = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        for (String raw : text.split(",", -1)) {
            String e = raw.strip();
            if (e.isEmpty()) {
                throw new IllegalArgumentException("empty entry in '" + text + "'");
            }
            out.add(parseRule(e));
        }
        return out;
    }

    private static List<Rule> rules(String text) {
        return parseList(text);
    }

    static Rule parseRule(String e) {
        String hostPart;
        String portPart = null;
        if (e.startsWith("[")) {
            int close = e.indexOf(']');
            if (close < 0) {
                throw bad(e, "no closing ]");
            }
            hostPart = e.substring(1, close);
            String after = e.substring(close + 1);
            if (!after.isEmpty()) {
                if (!after.startsWith(":")) {
                    throw bad(e, "expected :port after ]");
                }
                portPart = after.substring(1);
            }
            if (!hostPart.contains(":")) {
                throw bad(e, "brackets are for IPv6 addresses");
            }
        } else if (e.indexOf(':') != e.lastIndexOf(':')) {
            hostPart = e; // a bare IPv6 address or block: no port (write [addr]:port for one)
        } else if (e.indexOf(':') > 0) {
            hostPart = e.substring(0, e.indexOf(':'));
            portPart = e.substring(e.indexOf(':') + 1);
        } else {
            hostPart = e;
        }
        int port = -1;
        if (portPart != null) {
            if (!portPart.matches("[0-9]{1,5}") || Integer.parseInt(portPart) < 1 || Integer.parseInt(portPart) > 65535) {
                throw bad(e, "the port must be 1-65535");
            }
            port = Integer.parseInt(portPart);
        }
        int slash = hostPart.indexOf('/');
        String addr = slash < 0 ? hostPart : hostPart.substring(0, slash);
        InetAddress literal = literal(addr);
        if (literal == null) {
            if (slash >= 0) {
                throw bad(e, "a /prefix needs an IP address");
            }
            String h = normalHost(addr);
            if (!HOST.matcher(h).matches() || h.length() > 253) {
                throw bad(e, "not an IP address, CIDR block or host name");
            }
            boolean sub = h.startsWith("*.");
            return new Rule(e, null, 0, sub ? h.substring(2) : h, sub, port);
        }
        byte[] net = literal.getAddress();
        int bits = net.length * 8;
        if (slash >= 0) {
            String b = hostPart.substring(slash + 1);
            if (!b.matches("[0-9]{1,3}") || Integer.parseInt(b) > net.length * 8) {
                throw bad(e, "the prefix length must be 0-" + net.length * 8);
            }
            bits = Integer.parseInt(b);
        }
        return new Rule(e, net, bits, null, false, port);
    }

    /** The address a literal names, or null when the text is not an IP literal (never a DNS lookup). */
    static InetAddress literal(String s) {
        if (!IPV4.matcher(s).matches() && !(IPV6.matcher(s).matches() && s.indexOf(':') != s.lastIndexOf(':'))) {
            return null;
        }
        try {
            return canonical(InetAddress.getByName(s)); // a literal: parsed, not looked up
        } catch (UnknownHostException e) {
            return null;
        }
    }

    static String normalHost(String h) {
        String x = h.toLowerCase(Locale.ROOT);
        if (x.startsWith("[") && x.endsWith("]")) {
            x = x.substring(1, x.length() - 1);
        }
        return x.endsWith(".") ? x.substring(0, x.length() - 1) : x;
    }

    private static IllegalArgumentException bad(String entry, String why) {
        return new IllegalArgumentException("entry '" + entry + "': " + why);
    }

    /** The lists, for logs and errors. */
    @Override
    public String toString() {
        return "allow " + allow + ", deny " + deny;
    }
}
