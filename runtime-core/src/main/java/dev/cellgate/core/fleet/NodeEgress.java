package dev.cellgate.core.fleet;

import dev.cellgate.core.logic.EgressPolicy;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.spi.js.Egress;
import dev.cellgate.core.time.Ticker;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A node's Worker egress decision (SPEC §19): the policy of {@code CELLD_EGRESS_ALLOW}/{@code _DENY}
 * ({@link EgressPolicy}), this node's own listeners (known once bound; a wildcard bind stands for
 * every address of the host) and every peer's advertised address, read from the fleet view's leases
 * at each call (peers come and go) with host names resolved and cached for {@link #RESOLVE_TTL_MS}.
 * Called off the event loop (it may resolve names).
 */
public final class NodeEgress implements Egress {
    static final long RESOLVE_TTL_MS = 30_000;

    /** Name resolution (the system's, or a test's). */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** A listener as bound or advertised: {@code host} may be a wildcard, a literal or a name. */
    public record Listener(String host, int port, String what) {
    }

    private record Resolved(List<InetAddress> addresses, long atMs) {
    }

    private final EgressPolicy policy;
    private final Supplier<? extends Collection<LeaseRecord>> leases;
    private final String self;
    private final Resolver resolver;
    private final Ticker ticker;
    private final ConcurrentHashMap<String, Resolved> names = new ConcurrentHashMap<>();
    private volatile List<EgressPolicy.Endpoint> own = List.of();

    public NodeEgress(EgressPolicy policy, Supplier<? extends Collection<LeaseRecord>> leases, String self, Resolver resolver, Ticker ticker) {
        this.policy = policy;
        this.leases = leases;
        this.self = self;
        this.resolver = resolver;
        this.ticker = ticker;
    }

    /** With the system resolver and clock. */
    public static NodeEgress of(EgressPolicy policy, Supplier<? extends Collection<LeaseRecord>> leases, String self) {
        return new NodeEgress(policy, leases, self, InetAddress::getAllByName, Ticker.SYSTEM);
    }

    public EgressPolicy policy() {
        return policy;
    }

    /** This node's listeners, replacing the previous ones (called as they are bound). */
    public void listeners(List<Listener> listeners) {
        List<EgressPolicy.Endpoint> out = new ArrayList<>();
        for (Listener l : listeners) {
            for (InetAddress a : addressesOf(l.host(), true)) {
                out.add(new EgressPolicy.Endpoint(a, l.port(), l.what()));
            }
        }
        own = List.copyOf(out);
    }

    List<EgressPolicy.Endpoint> own() {
        return own;
    }

    /** Every peer's advertised address, resolved. */
    List<EgressPolicy.Endpoint> peers() {
        List<EgressPolicy.Endpoint> out = new ArrayList<>();
        for (LeaseRecord l : leases.get()) {
            if (l.node().equals(self) || l.advertise() == null) {
                continue;
            }
            int colon = l.advertise().lastIndexOf(':');
            if (colon <= 0 || !l.advertise().substring(colon + 1).matches("[0-9]{1,5}")) {
                continue; // a malformed lease names no address anyone connects to
            }
            int port = Integer.parseInt(l.advertise().substring(colon + 1));
            for (InetAddress a : addressesOf(l.advertise().substring(0, colon), false)) {
                out.add(new EgressPolicy.Endpoint(a, port, "peer " + l.node() + "'s advertised address " + l.advertise()));
            }
        }
        return out;
    }

    @Override
    public String refusal(String host, InetAddress address, int port) {
        EgressPolicy.Verdict v = policy.decide(new EgressPolicy.Destination(host, address, port), own, peers());
        return v.allowed() ? null : v.reason();
    }

    /** The addresses a listener host stands for: a wildcard, every address of this host (own listeners only). */
    private List<InetAddress> addressesOf(String rawHost, boolean wildcardIsLocal) {
        String host = rawHost.startsWith("[") && rawHost.endsWith("]") ? rawHost.substring(1, rawHost.length() - 1) : rawHost;
        if (wildcardIsLocal && (host.equals("0.0.0.0") || host.equals("::") || host.equals("0:0:0:0:0:0:0:0"))) {
            return localAddresses();
        }
        long now = ticker.nowMs();
        Resolved r = names.get(host);
        if (r == null || now - r.atMs() > RESOLVE_TTL_MS) {
            List<InetAddress> got;
            try {
                got = List.of(resolver.resolve(host));
            } catch (UnknownHostException e) {
                got = r == null ? List.of() : r.addresses(); // keep the last answer rather than forget a peer
            }
            r = new Resolved(got, now);
            names.put(host, r);
        }
        return r.addresses();
    }

    private static List<InetAddress> localAddresses() {
        try {
            List<InetAddress> out = new ArrayList<>();
            for (NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                out.addAll(Collections.list(n.getInetAddresses()));
            }
            return out;
        } catch (SocketException e) {
            return List.of(); // loopback is refused anyway; an interface we cannot list we cannot protect either
        }
    }
}
