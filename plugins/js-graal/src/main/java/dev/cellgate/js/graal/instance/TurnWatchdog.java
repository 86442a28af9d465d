package dev.cellgate.js.graal.instance;

import dev.cellgate.js.graal.JsLimits;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One daemon thread per engine that samples every live instance's running turn and stops the
 * event that exceeds its CPU budget or allocation limit ({@link JsLimits}). Sampling, rather than
 * per-turn timers, keeps the request path free of scheduling work.
 */
public final class TurnWatchdog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TurnWatchdog.class);

    private final JsLimits limits;
    private final Set<JsInstance> instances = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean closed;

    public TurnWatchdog(JsLimits limits) {
        this.limits = limits;
        this.thread = new Thread(this::loop, "cellgate-js-watchdog");
        thread.setDaemon(true);
        thread.start();
    }

    void watch(JsInstance instance) {
        instances.add(instance);
    }

    void unwatch(JsInstance instance) {
        instances.remove(instance);
    }

    private void loop() {
        while (!closed) {
            try {
                Thread.sleep(limits.watchdogIntervalMs());
            } catch (InterruptedException e) {
                return;
            }
            for (JsInstance instance : instances) {
                try {
                    instance.checkLimits(limits);
                } catch (RuntimeException e) {
                    LOG.atWarn().setMessage("js.watchdog.failed").addKeyValue("error", e.toString()).log();
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
