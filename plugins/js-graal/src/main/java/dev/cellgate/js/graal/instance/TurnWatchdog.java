package dev.cellgate.js.graal.instance;

import dev.cellgate.js.graal.JsLimits;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One daemon thread per engine that samples the running turns and stops the event that exceeds
 * its CPU budget or allocation limit ({@link JsLimits}). Sampling, rather than per-turn timers,
 * keeps the request path free of scheduling work. Only instances inside a turn are in the sampled
 * set: a node holds thousands of idle resident instances, and visiting each of them every
 * interval cost about a tenth of the node's CPU in the bench's kv-many run.
 */
public final class TurnWatchdog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TurnWatchdog.class);

    /** Only the sampling interval is read here: each instance checks against its own limits. */
    private final JsLimits limits;
    private final Set<JsInstance> running = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean closed;

    public TurnWatchdog(JsLimits limits) {
        this.limits = limits;
        this.thread = new Thread(this::loop, "cellgate-js-watchdog");
        thread.setDaemon(true);
        thread.start();
    }

    void turnStarted(JsInstance instance) {
        running.add(instance);
    }

    void turnEnded(JsInstance instance) {
        running.remove(instance);
    }

    /** Instances inside a turn now (for tests and diagnostics). */
    public int sampled() {
        return running.size();
    }

    private void loop() {
        while (!closed) {
            try {
                Thread.sleep(limits.watchdogIntervalMs());
            } catch (InterruptedException e) {
                return;
            }
            for (JsInstance instance : running) {
                try {
                    instance.checkLimits(); // each instance's own limits: its deployment may set limits.cpu_ms
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
