package dev.cellgate.deploy.operator;

import dev.cellgate.core.fleet.OperatorSignature;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.Scopes;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.MalformedRecordException;
import dev.cellgate.core.records.PeerAuthRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.deploy.cli.Args;
import dev.cellgate.deploy.cli.Command;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.ExitCodes;
import dev.cellgate.deploy.diagnose.AdvertiseAddress;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code deploy-tool node NODE shutdown|evict|probe}: the mutating operator calls, signed with the
 * fleet key read from the bucket (SPEC §19). The node is found by its lease ({@code nodes/NODE.json},
 * its advertised internal address) unless {@code --address} names another way to reach it.
 */
public final class NodeCommand implements Command {
    static final long DEFAULT_TIMEOUT_MS = 60_000;

    @Override
    public String name() {
        return "node";
    }

    @Override
    public Set<String> valued() {
        return Set.of("address", "timeout-ms");
    }

    @Override
    public Set<String> flags() {
        return Set.of("preserve");
    }

    @Override
    public String usage() {
        return """
                  node NODE shutdown [--preserve] | node NODE evict SCOPE | node NODE probe BUCKET_URL
                      [--address HOST:PORT] [--timeout-ms N]
                      Call a node's operator API, signed with the fleet key from the bucket: start its
                      graceful stop (--preserve keeps ownership for a same-node restart), release one
                      cell from it, or run the conditional-write probe on another bucket (not file://).
                      The node is reached at the advertised address of its lease unless --address.
                """;
    }

    @Override
    public int run(Args args, Tool tool) {
        List<String> p = args.positional();
        if (p.size() < 2) {
            throw CommandException.usage("node needs NODE and an action (shutdown, evict SCOPE, probe BUCKET_URL)");
        }
        String node = p.get(0);
        String path = path(p.subList(1, p.size()), args.flag("preserve"));
        Duration timeout = Duration.ofMillis(timeoutMs(args.get("timeout-ms")));
        try (BucketStore store = tool.stores().open(args)) {
            OperatorSignature signature = fleetKey(store);
            AdvertiseAddress address = address(store, node, args.get("address"));
            OperatorCall.Answer a = new OperatorCall(signature, timeout).postOrFail(node, address, path, new byte[0]);
            JsonObject answer;
            try {
                answer = new JsonObject(a.body());
            } catch (RuntimeException e) {
                answer = new JsonObject().put("text", a.body());
            }
            if (a.status() / 100 != 2) {
                throw new CommandException(ExitCodes.FAILED, "node " + node + " answered POST " + path + " with " + a.status()
                        + ": " + answer.getValue("error", a.body()));
            }
            tool.out().result(new JsonObject().put("node", node).put("address", address.authority()).put("path", path)
                    .put("status", a.status()).put("answer", answer), "node " + node + ": POST " + path + " -> " + a.status() + " "
                    + answer.encode());
            return ExitCodes.OK;
        }
    }

    static String path(List<String> action, boolean preserve) {
        String verb = action.get(0);
        switch (verb) {
            case "shutdown" -> {
                only(action, 1);
                return preserve ? "/shutdown?handoff=preserve" : "/shutdown";
            }
            case "evict" -> {
                only(action, 2);
                if (!Scopes.isValid(action.get(1))) {
                    throw CommandException.usage("evict needs a scope <ClassName>:<64 lowercase hex>, got '" + action.get(1) + "'");
                }
                noPreserve(preserve, verb);
                return "/evict/" + action.get(1);
            }
            case "probe" -> {
                only(action, 2);
                noPreserve(preserve, verb);
                return "/probe?bucket=" + URLEncoder.encode(action.get(1), StandardCharsets.UTF_8);
            }
            default -> throw CommandException.usage("unknown node action '" + verb + "' (shutdown, evict, probe)");
        }
    }

    private static void only(List<String> action, int n) {
        if (action.size() != n) {
            throw CommandException.usage("node ... " + action.get(0) + " takes " + (n - 1) + " argument(s), got " + action.subList(1, action.size()));
        }
    }

    private static void noPreserve(boolean preserve, String verb) {
        if (preserve) {
            throw CommandException.usage("--preserve is an option of shutdown, not of " + verb);
        }
    }

    static OperatorSignature fleetKey(BucketStore store) {
        Optional<StoredObject> o = read(store, Keys.PEER_AUTH);
        if (o.isEmpty()) {
            throw CommandException.failed("the bucket has no fleet key " + Keys.PEER_AUTH + " (no node ever started on it)", null);
        }
        try {
            return new OperatorSignature(PeerAuthRecord.decode(o.get().bytes()).keyHex());
        } catch (MalformedRecordException e) {
            throw CommandException.failed("the fleet key " + Keys.PEER_AUTH + " is malformed: " + e.getMessage(), e);
        }
    }

    static AdvertiseAddress address(BucketStore store, String node, String override) {
        try {
            if (override != null) {
                return AdvertiseAddress.parse(override);
            }
        } catch (IllegalArgumentException e) {
            throw CommandException.usage("--address: " + e.getMessage());
        }
        Optional<StoredObject> o = read(store, Keys.lease(node));
        if (o.isEmpty()) {
            throw CommandException.failed("node " + node + " has no lease under " + Keys.NODES + " (not running?); name it exactly, or"
                    + " reach it with --address HOST:PORT", null);
        }
        AdvertiseAddress a;
        try {
            a = AdvertiseAddress.parse(LeaseRecord.decode(o.get().bytes()).advertise());
        } catch (MalformedRecordException | IllegalArgumentException e) {
            throw CommandException.failed("node " + node + "'s lease has no usable address (" + e.getMessage() + "): use --address", e);
        }
        if (a.kind() == AdvertiseAddress.Kind.WILDCARD) {
            throw CommandException.failed("node " + node + " advertises " + a.authority() + ", a wildcard: use --address HOST:PORT", null);
        }
        return a;
    }

    static Optional<StoredObject> read(BucketStore store, String key) {
        try {
            return store.get(key).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw CommandException.failed("cannot read " + key + ": " + e, e);
        }
    }

    static long timeoutMs(String v) {
        if (v == null) {
            return DEFAULT_TIMEOUT_MS;
        }
        if (v.matches("[0-9]{1,9}") && Long.parseLong(v) > 0) {
            return Long.parseLong(v);
        }
        throw CommandException.usage("--timeout-ms must be a positive integer (got '" + v + "')");
    }
}
