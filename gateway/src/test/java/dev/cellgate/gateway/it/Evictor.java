package dev.cellgate.gateway.it;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An operator who evicts every known cell from whichever node holds it ({@code POST /evict/<scope>}
 * on each node's internal listener) every {@code periodMs}: each eviction is a release of
 * {@code own.json}, and the next request an acquisition, so ownership changes hands all the time.
 */
final class Evictor {
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong released = new AtomicLong();
    private Thread thread;

    static Evictor start(ProxiedFleet f, long periodMs) {
        Evictor e = new Evictor();
        e.thread = Thread.ofPlatform().name("evictor").start(() -> {
            while (!e.stop.get()) {
                try {
                    Thread.sleep(periodMs);
                } catch (InterruptedException ex) {
                    return;
                }
                for (String scope : f.scopes()) {
                    for (NodeProcess n : f.live) {
                        if (e.stop.get() || !n.alive()) {
                            continue;
                        }
                        try {
                            if (n.operatorPost("/evict/" + scope).statusCode() == 200) {
                                e.released.incrementAndGet();
                            }
                        } catch (Exception ignored) {
                            // a node under faults may not answer: the next round tries again
                        }
                    }
                }
            }
        });
        return e;
    }

    long released() {
        return released.get();
    }

    void stop() throws InterruptedException {
        stop.set(true);
        thread.join(120_000);
    }
}
