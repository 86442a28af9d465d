package dev.cellgate.js.graal.instance;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The events an instance counts in flight: a handler that has not answered, a pending
 * {@code waitUntil} promise, an event waiting at the input gate. The host reads the count to know
 * when a cell or Worker is quiet (draining, eviction). Used only on the instance's executor.
 */
final class OpenEvents {
    private final Set<JsEvent> open = new LinkedHashSet<>();
    private int inFlight;

    void hold(JsEvent event) {
        event.holds++;
        inFlight++;
        open.add(event);
    }

    void release(JsEvent event) {
        if (event.holds <= 0) {
            return;
        }
        event.holds--;
        inFlight--;
        if (event.holds == 0) {
            open.remove(event);
            event.end();
        }
    }

    int inFlight() {
        return inFlight;
    }

    /** Fails every open event with {@code cause} and forgets them. */
    void failAll(Throwable cause) {
        List<JsEvent> orphans = new ArrayList<>(open);
        open.clear();
        inFlight = 0;
        for (JsEvent e : orphans) {
            e.holds = 0;
            e.fail(cause);
            e.end();
        }
    }
}
