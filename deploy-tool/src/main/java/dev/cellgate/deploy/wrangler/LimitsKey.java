package dev.cellgate.deploy.wrangler;

import dev.cellgate.core.logic.WorkerCpuLimit;
import io.vertx.core.json.JsonObject;

/**
 * {@code limits}: {@code { cpu_ms: N }}, the CPU time each event of the Worker may use (1 to 300000
 * ms, {@link WorkerCpuLimit}; without it, the node's {@code CELLD_CPU_MS}). Wrangler's other
 * sub-key, {@code subrequests}, is refused by name, as is any key Wrangler does not have: a limit
 * written and not enforced would be accepted and ignored. Every problem is one refusal.
 */
final class LimitsKey {
    private LimitsKey() {
    }

    /** The Worker's {@code cpu_ms}, or null when it sets none. */
    static Long parse(Object value, Problems problems) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof JsonObject o)) {
            throw new IllegalArgumentException("\"limits\" must be an object ({\"cpu_ms\": 50})");
        }
        for (String k : o.fieldNames()) {
            if (k.equals("subrequests")) {
                problems.refuse("key \"limits.subrequests\" is not supported by cellgate: a per-event subrequest limit is not implemented");
            } else if (!k.equals("cpu_ms")) {
                problems.refuse("key \"limits." + k + "\" is not supported by cellgate (Wrangler's limits has cpu_ms and subrequests)");
            }
        }
        if (!o.containsKey("cpu_ms")) {
            return null;
        }
        Object cpu = o.getValue("cpu_ms");
        String problem = WorkerCpuLimit.problem(cpu);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return ((Number) cpu).longValue();
    }
}
