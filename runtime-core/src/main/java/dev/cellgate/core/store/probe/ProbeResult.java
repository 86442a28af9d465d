package dev.cellgate.core.store.probe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the storage probe found: every step it ran, in order. The store qualifies only when every
 * step passed; otherwise {@link #failedStep()} is the first that did not.
 */
public record ProbeResult(String storeUrl, String key, List<ProbeStep> steps) {

    public ProbeResult {
        steps = List.copyOf(steps);
    }

    public boolean ok() {
        return !steps.isEmpty() && steps.stream().allMatch(ProbeStep::ok);
    }

    public Optional<ProbeStep> failedStep() {
        return steps.stream().filter(s -> !s.ok()).findFirst();
    }

    /** One line for logs and for the node's refusal to start: names the store URL and the failed step. */
    public String summary() {
        return failedStep()
                .map(s -> "storage probe FAILED on " + storeUrl + " at step '" + s.name() + "': " + oneLine(s.detail()))
                .orElse("storage probe passed: conditional writes are atomic on " + storeUrl + " (" + steps.size() + " steps)");
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("bucket", storeUrl);
        m.put("ok", ok());
        m.put("key", key);
        failedStep().ifPresent(s -> m.put("failed_step", s.name()));
        m.put("summary", summary());
        List<Object> list = new ArrayList<>();
        steps.forEach(s -> list.add(s.toMap()));
        m.put("steps", list);
        return m;
    }
}
