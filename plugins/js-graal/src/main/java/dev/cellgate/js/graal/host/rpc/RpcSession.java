package dev.cellgate.js.graal.host.rpc;

import java.util.ArrayList;
import java.util.List;

/**
 * A lifetime that stubs and exported objects belong to, as workerd scopes them: a Worker's request
 * (its fetch event with its {@code waitUntil}s), one RPC call (the stubs it received as arguments),
 * or a Durable Object's instance (what it received in results or kept with {@code dup()}, and what
 * it exported). When a session ends, the stubs it holds are released, newest first, and the objects
 * it exported stop answering. Guarded by the {@link RpcExports} lock.
 */
final class RpcSession {
    final String what;
    final List<RpcExports.Ref> held = new ArrayList<>();
    final List<RpcExports.Export> exported = new ArrayList<>();
    boolean closed;

    RpcSession(String what) {
        this.what = what;
    }

    @Override
    public String toString() {
        return "rpc session of " + what;
    }
}
