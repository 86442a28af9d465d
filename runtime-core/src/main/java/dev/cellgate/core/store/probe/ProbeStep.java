package dev.cellgate.core.store.probe;

import java.util.LinkedHashMap;
import java.util.Map;

/** One step of the storage probe: its name, whether the store behaved, what was seen, how long it took. */
public record ProbeStep(String name, boolean ok, String detail, long ms) {

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("step", name);
        m.put("ok", ok);
        m.put("detail", detail);
        m.put("ms", ms);
        return m;
    }
}
