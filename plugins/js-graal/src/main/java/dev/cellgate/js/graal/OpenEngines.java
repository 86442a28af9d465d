package dev.cellgate.js.graal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The engines this plugin created and has not closed yet, so that {@link GraalJsPlugin#stop()} can close them. */
final class OpenEngines {
    private static final Set<GraalJsEngine> OPEN = ConcurrentHashMap.newKeySet();

    private OpenEngines() {
    }

    static void add(GraalJsEngine engine) {
        OPEN.add(engine);
    }

    static void remove(GraalJsEngine engine) {
        OPEN.remove(engine);
    }

    static void closeAll() {
        for (GraalJsEngine engine : Set.copyOf(OPEN)) {
            engine.close();
        }
    }

    static int count() {
        return OPEN.size();
    }
}
