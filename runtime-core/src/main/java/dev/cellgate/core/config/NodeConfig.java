package dev.cellgate.core.config;

import dev.cellgate.core.config.SettingType.HostPort;
import dev.cellgate.core.logic.Liveness;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** The validated configuration of a node. Computed defaults are resolved here, in one place. */
public final class NodeConfig {
    private final Map<Setting, Object> values;
    private final Map<String, String> vars;

    NodeConfig(Map<Setting, Object> values, Map<String, String> vars) {
        this.values = Map.copyOf(values);
        this.vars = Map.copyOf(vars);
        checkRelations();
    }

    /** The defaults alone (no file, empty environment). */
    public static NodeConfig defaults() {
        return ConfigLoader.load(null, Map.of());
    }

    private void checkRelations() {
        OptionalInt max = maxResidentCells();
        if (values.containsKey(Settings.RESIDENT_LOW_WATER)) {
            int low = (Integer) values.get(Settings.RESIDENT_LOW_WATER);
            if (max.isEmpty()) {
                throw new ConfigException("invalid CELLD_RESIDENT_LOW_WATER=" + low + ": needs CELLD_MAX_RESIDENT_CELLS");
            }
            if (low > max.getAsInt()) {
                throw new ConfigException("invalid CELLD_RESIDENT_LOW_WATER=" + low
                        + ": must not exceed CELLD_MAX_RESIDENT_CELLS=" + max.getAsInt());
            }
        }
        String skewProblem = Liveness.skewProblem(clockSkewMs(), ttlMs());
        if (skewProblem != null) {
            throw new ConfigException("invalid CELLD_CLOCK_SKEW_MS=" + clockSkewMs()
                    + (isSet(Settings.CLOCK_SKEW_MS) ? "" : " (the default for this TTL)") + ": " + skewProblem);
        }
        Optional<Integer> grace = optionalInt(Settings.STOP_GRACE_MS);
        if (grace.isPresent() && shutdownDrainMs() >= grace.get()) {
            throw new ConfigException("invalid CELLD_SHUTDOWN_DRAIN_MS=" + shutdownDrainMs()
                    + ": must be below CELLD_STOP_GRACE_MS=" + grace.get()
                    + " (the orchestrator would kill the node before its drain ends)");
        }
    }

    /** The value set by file or environment, or the setting's literal default parsed. */
    public Object raw(Setting s) {
        Object v = values.get(s);
        if (v == null && s.defaultValue() != null) {
            v = s.type().parse(s.defaultValue());
        }
        return v;
    }

    public boolean isSet(Setting s) {
        return values.containsKey(s);
    }

    private Optional<Integer> optionalInt(Setting s) {
        return Optional.ofNullable((Integer) values.get(s));
    }

    public int intValue(Setting s) {
        Object v = raw(s);
        if (!(v instanceof Integer i)) {
            throw new IllegalStateException(s.env() + " has no integer value");
        }
        return i;
    }

    public boolean flag(Setting s) {
        return (Boolean) raw(s);
    }

    public Optional<String> text(Setting s) {
        return Optional.ofNullable((String) raw(s));
    }

    public String bucket() {
        return (String) raw(Settings.BUCKET);
    }

    public HostPort addr() {
        return SettingType.parseAddress((String) raw(Settings.ADDR));
    }

    public HostPort internalAddr() {
        return SettingType.parseAddress((String) raw(Settings.INTERNAL_ADDR));
    }

    /** The advertised address when set; otherwise the bound internal address is used. */
    public Optional<String> advertise() {
        return text(Settings.ADVERTISE);
    }

    public Optional<String> nodeId() {
        return text(Settings.NODE);
    }

    public String watchDir() {
        return (String) raw(Settings.WATCH);
    }

    public int ttlMs() {
        return intValue(Settings.TTL_MS);
    }

    /**
     * The clock-skew margin (SPEC §20): as set, else 2000 ms, or a quarter of the TTL when that is
     * smaller (a margin must stay below TTL/3, and short test TTLs would otherwise need it set).
     */
    public long clockSkewMs() {
        Integer v = (Integer) values.get(Settings.CLOCK_SKEW_MS);
        return v != null ? v : Liveness.defaultSkewMs(ttlMs());
    }

    public int releases() {
        return intValue(Settings.RELEASES);
    }

    public int shutdownDrainMs() {
        return intValue(Settings.SHUTDOWN_DRAIN_MS);
    }

    public int wakerTickMs() {
        return intValue(Settings.WAKER_TICK_MS);
    }

    /** How often the node reads {@code deploy/current.json}. */
    public int deployPollMs() {
        return intValue(Settings.DEPLOY_POLL_MS);
    }

    public OptionalInt maxResidentCells() {
        Integer v = (Integer) values.get(Settings.MAX_RESIDENT_CELLS);
        return v == null ? OptionalInt.empty() : OptionalInt.of(v);
    }

    /** 80% of the max unless set; empty when there is no max. */
    public OptionalInt residentLowWater() {
        OptionalInt max = maxResidentCells();
        if (max.isEmpty()) {
            return OptionalInt.empty();
        }
        Integer set = (Integer) values.get(Settings.RESIDENT_LOW_WATER);
        return OptionalInt.of(set != null ? set : Math.max(1, (int) (max.getAsInt() * 0.8)));
    }

    /** Memory-pressure threshold in MB; 0 disables. Default: 80% of physical memory. */
    public int maxRssMb() {
        Integer v = (Integer) values.get(Settings.MAX_RSS_MB);
        if (v != null) {
            return v;
        }
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return (int) (os.getTotalMemorySize() * 0.8 / (1024 * 1024));
    }

    public int jsThreads() {
        Integer v = (Integer) values.get(Settings.JS_THREADS);
        return v != null ? v : dev.cellgate.core.worker.JsThreads.defaultSize(Runtime.getRuntime().availableProcessors());
    }

    public int activations() {
        Integer v = (Integer) values.get(Settings.ACTIVATIONS);
        return v != null ? v : Math.min(Runtime.getRuntime().availableProcessors(), 128);
    }

    public int activationDeadlineMs() {
        return intValue(Settings.ACTIVATION_DEADLINE_MS);
    }

    public boolean outputGate() {
        return flag(Settings.OUTPUT_GATE);
    }

    public boolean storageProbe() {
        return flag(Settings.STORAGE_PROBE);
    }

    /** {@code CELLD_HANDOFF_WARM_MS}: how long a handoff stop waits for peers to activate its released cells (0: off). */
    public int handoffWarmMs() {
        return intValue(Settings.HANDOFF_WARM_MS);
    }

    /** {@code CELLD_PITR_DAYS}: how far back point-in-time recovery reaches, in ms (0: off). */
    public long pitrRetentionMs() {
        return dev.cellgate.core.logic.PitrHistory.retentionMs(intValue(Settings.PITR_DAYS));
    }

    /** {@code CELLD_FENCE_EXIT}: exit 3 on every fence instead of degrading on a lapse (issue 29). */
    public boolean fenceExit() {
        return flag(Settings.FENCE_EXIT);
    }

    public Optional<String> pluginsDir() {
        return text(Settings.PLUGINS_DIR);
    }

    public int idleEvictMs() {
        return intValue(Settings.IDLE_EVICT_MS);
    }

    public int maxRequestBodyBytes() {
        return intValue(Settings.MAX_REQUEST_BODY_BYTES);
    }

    public int cpuMs() {
        return intValue(Settings.CPU_MS);
    }

    /** The Cache API store's memory bound in bytes ({@code CELLD_CACHE_MB}). */
    public long cacheBytes() {
        return (long) intValue(Settings.CACHE_MB) << 20;
    }

    /** Which request headers a trusted balancer fills {@code request.cf} from ({@code CELLD_CF_HEADERS}). */
    public dev.cellgate.core.logic.RequestCf requestCf() {
        Optional<String> v = text(Settings.CF_HEADERS);
        try {
            return dev.cellgate.core.logic.RequestCf.parse(v.orElse(null));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(Settings.CF_HEADERS.env() + "='" + v.orElse("") + "': " + e.getMessage());
        }
    }

    public Optional<String> logFormat() {
        return text(Settings.LOG_FORMAT);
    }

    /** The OTLP/HTTP collector spans are exported to; empty: tracing is off. */
    public Optional<String> otelEndpoint() {
        return text(Settings.OTEL_ENDPOINT);
    }

    public boolean jit() {
        return flag(Settings.JIT);
    }

    // Security of the node (SPEC §19).

    /** The bearer token of the mutating operator routes, when set. */
    public Optional<String> operatorToken() {
        return text(Settings.OPERATOR_TOKEN);
    }

    /** Worker egress: the default refusals, lifted by CELLD_EGRESS_ALLOW and extended by CELLD_EGRESS_DENY. */
    public dev.cellgate.core.logic.EgressPolicy egressPolicy() {
        return dev.cellgate.core.logic.EgressPolicy.of(text(Settings.EGRESS_ALLOW).orElse(null), text(Settings.EGRESS_DENY).orElse(null));
    }

    /** Worker {@code vars} overrides ({@code CELLD_VAR_*} and node.json {@code vars}). */
    public Map<String, String> varOverrides() {
        return vars;
    }

    /** Store options handed to bucket providers (S3 endpoint and region, GCS endpoint, file fsync). */
    public Map<String, String> storeOptions() {
        var m = new java.util.HashMap<String, String>();
        text(Settings.S3_ENDPOINT).ifPresent(v -> m.put(Settings.S3_ENDPOINT.env(), v));
        text(Settings.AWS_REGION).ifPresent(v -> m.put(Settings.AWS_REGION.env(), v));
        text(Settings.GCS_ENDPOINT).ifPresent(v -> m.put(Settings.GCS_ENDPOINT.env(), v));
        m.put(Settings.FILE_FSYNC.env(), flag(Settings.FILE_FSYNC) ? "1" : "0");
        return m;
    }
}
