package dev.cellgate.js.graal.host;

import dev.cellgate.js.graal.instance.JsEvent;
import dev.cellgate.js.graal.instance.JsInstance;
import io.vertx.core.Vertx;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code setTimeout}/{@code setInterval} on Vert.x timers. The JavaScript side owns the callbacks
 * and interval re-arming; here a timer is an id whose expiry is posted to the instance's executor
 * as a turn of the event that set it. Only the executor touches {@link #pending}.
 */
final class Timers {
    private final Vertx vertx;
    private final JsInstance instance;
    private final Supplier<JsFunctions> fns;
    private final Map<Integer, Long> pending = new HashMap<>();

    Timers(Vertx vertx, JsInstance instance, Supplier<JsFunctions> fns) {
        this.vertx = vertx;
        this.instance = instance;
        this.fns = fns;
    }

    void set(int id, double delayMs) {
        JsEvent event = instance.currentEvent();
        long delay = (long) Math.max(1, Math.min(delayMs, Integer.MAX_VALUE));
        long vertxId = vertx.setTimer(delay, ignored -> instance.post(event, () -> fire(id)));
        pending.put(id, vertxId);
    }

    private void fire(int id) {
        if (pending.remove(id) != null) {
            fns.get().fireTimer().executeVoid(id);
        }
    }

    void clear(int id) {
        Long vertxId = pending.remove(id);
        if (vertxId != null) {
            vertx.cancelTimer(vertxId);
        }
    }

    void clearAll() {
        pending.values().forEach(vertx::cancelTimer);
        pending.clear();
    }
}
