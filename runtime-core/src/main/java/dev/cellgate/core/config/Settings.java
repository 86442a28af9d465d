package dev.cellgate.core.config;

import static dev.cellgate.core.config.SettingType.*;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every setting a node knows. Names and defaults of the first block come from the product
 * specification and are normative; the rest are ours, all prefixed {@code CELLD_}.
 */
public final class Settings {
    private Settings() {
    }

    public static final Setting BUCKET = Setting.of("CELLD_BUCKET", BUCKET_URL, "file://./cellgate-data/bucket", "the fleet bucket");
    public static final Setting S3_ENDPOINT = Setting.of("S3_ENDPOINT", TEXT, null, "S3-compatible endpoint URL (s3:// buckets)");
    public static final Setting AWS_REGION = Setting.of("AWS_REGION", TEXT, null, "S3 region (s3:// buckets)");
    public static final Setting ADDR = Setting.of("CELLD_ADDR", ADDRESS, "127.0.0.1:8080", "public listener (Worker traffic)");
    public static final Setting INTERNAL_ADDR = Setting.of("CELLD_INTERNAL_ADDR", ADDRESS, "127.0.0.1:0", "internal listener (peers + operator API)");
    public static final Setting ADVERTISE = Setting.computed("CELLD_ADVERTISE", ADDRESS, "the internal address", "address peers use to reach this node");
    public static final Setting NODE = Setting.computed("CELLD_NODE", NODE_ID, "generated", "node id");
    public static final Setting WATCH = Setting.of("CELLD_WATCH", TEXT, "./cellgate-data/node", "local work dir (SQLite files, caches)");
    public static final Setting TTL_MS = Setting.of("CELLD_TTL_MS", POSITIVE_INT, "10000", "node lease lifetime in ms; renewed every TTL/3");
    public static final Setting CLOCK_SKEW_MS = Setting.computed("CELLD_CLOCK_SKEW_MS", POSITIVE_INT, "2000 (TTL/4 when CELLD_TTL_MS < 8000)",
            "how far apart node clocks may be, in ms; must be below CELLD_TTL_MS/3. A node stops serving at its last landed renewal's "
                    + "send + TTL - this (monotonic clock); peers judge a lease dead only after expires_ms + this; a node whose clock "
                    + "differs from the bucket's by more warns (clock.skew_beyond_margin)");
    public static final Setting RELEASES = Setting.of("CELLD_RELEASES", POSITIVE_INT, "128", "max concurrent ownership releases at shutdown");
    public static final Setting SHUTDOWN_DRAIN_MS = Setting.of("CELLD_SHUTDOWN_DRAIN_MS", POSITIVE_INT, "25000", "bound on the whole shutdown drain in ms");
    public static final Setting WAKER_TICK_MS = Setting.of("CELLD_WAKER_TICK_MS", POSITIVE_INT, "60000", "waker tick in ms (alarm wake scan + dead-node GC)");
    public static final Setting DEPLOY_POLL_MS = Setting.of("CELLD_DEPLOY_POLL_MS", POSITIVE_INT, "500",
            "how often a node reads deploy/current.json, in ms (one small GET per poll); deploy-tool dev sets 100");
    public static final Setting MAX_RESIDENT_CELLS = Setting.computed("CELLD_MAX_RESIDENT_CELLS", POSITIVE_INT, "(open files - 1024) / 3",
            "hard limit of resident cells, enforced at admission; unset: the open-file limit sets it (3 descriptors per cell)");
    public static final Setting RESIDENT_LOW_WATER = Setting.computed("CELLD_RESIDENT_LOW_WATER", POSITIVE_INT, "80% of the max", "when over the max, shed idle cells down to this");
    public static final Setting MAX_RSS_MB = Setting.computed("CELLD_MAX_RSS_MB", NON_NEGATIVE_INT, "80% of memory", "memory-pressure threshold for shedding in MB (0 disables)");
    public static final Setting ACTIVATIONS = Setting.computed("CELLD_ACTIVATIONS", POSITIVE_INT, "min(cores, 128)", "concurrent cold activations");
    public static final Setting ACTIVATION_DEADLINE_MS = Setting.of("CELLD_ACTIVATION_DEADLINE_MS", POSITIVE_INT, "30000",
            "bound on one cell activation (acquire, restore, construct) in ms; past it the request fails retryably and the slot is freed");
    public static final Setting OUTPUT_GATE = Setting.of("CELLD_OUTPUT_GATE", BOOL, "1", "0 acknowledges writes before replication (may lose acknowledged writes)");
    public static final Setting STORAGE_PROBE = Setting.of("CELLD_STORAGE_PROBE", BOOL, "1", "run the conditional-write probe at startup");
    public static final Setting HANDOFF_WARM_MS = Setting.of("CELLD_HANDOFF_WARM_MS", NON_NEGATIVE_INT, "5000",
            "at a handoff stop, live peers are asked to activate each released cell at once, so its next request finds it resident there; how long the stop may wait for them after its last release, in ms (0: off, a released cell is activated by its next request)");
    public static final Setting PITR_DAYS = Setting.of("CELLD_PITR_DAYS", NON_NEGATIVE_INT, "30",
            "days of history kept for point-in-time recovery (storage.getBookmarkForTime, deploy-tool cells restore); 0: off, "
                    + "the bucket keeps only each cell's current lineage");
    public static final Setting FENCE_EXIT = Setting.of("CELLD_FENCE_EXIT", BOOL, "0",
            "1: a node whose lease lapsed (the bucket did not answer in time) exits with code 3 for a supervisor to restart; "
                    + "0: it stops its cells, keeps serving stateless requests and rejoins with a new session once the bucket "
                    + "answers. A lease replaced by another writer always exits 3");

    public static final Setting PLUGINS_DIR = Setting.computed("CELLD_PLUGINS_DIR", TEXT, "plugins/ next to gateway.jar", "plugins directory, watched for new jars");
    public static final Setting IDLE_EVICT_MS = Setting.of("CELLD_IDLE_EVICT_MS", POSITIVE_INT, "300000", "evict a cell idle for this long (ms)");
    public static final Setting MAX_REQUEST_BODY_BYTES = Setting.of("CELLD_MAX_REQUEST_BODY_BYTES", POSITIVE_INT, "104857600", "largest request body accepted; larger gets 413");
    public static final Setting CPU_MS = Setting.of("CELLD_CPU_MS", POSITIVE_INT, "30000", "CPU budget of one JavaScript event in ms, for Workers without their own limits.cpu_ms; past it the event is interrupted");
    public static final Setting JS_THREADS = Setting.computed("CELLD_JS_THREADS", POSITIVE_INT, "max(8, 4 x cores)",
            "threads JavaScript runs on, apart from the event loops: this many handlers may spin at once before other objects' events queue");
    public static final Setting STOP_GRACE_MS = Setting.computed("CELLD_STOP_GRACE_MS", POSITIVE_INT, "(unset)", "the orchestrator's stop grace period; the node refuses to start unless CELLD_SHUTDOWN_DRAIN_MS is below it");
    public static final Setting LOG_FORMAT = Setting.computed("CELLD_LOG_FORMAT", SettingType.LOG_FORMAT, "json (text on a terminal)", "log format: json lines or human-readable text");
    public static final Setting JIT = Setting.of("CELLD_JIT", BOOL, "1", "relaunch the JVM with the Graal JIT for JavaScript (0 runs interpreted)");
    public static final Setting FILE_FSYNC = Setting.of("CELLD_FILE_FSYNC", BOOL, "1", "file:// bucket: fsync each object before it replaces the old one (0 only for throwaway data)");
    public static final Setting GCS_ENDPOINT = Setting.of("CELLD_GCS_ENDPOINT", TEXT, null, "gs:// buckets: a Cloud Storage JSON API host other than Google's (an emulator; requests carry no credentials)");
    // Security of the node (SPEC §19): who may call the mutating operator routes, where a Worker may connect.
    public static final Setting OPERATOR_TOKEN = Setting.of("CELLD_OPERATOR_TOKEN", SECRET, null,
            "bearer token the mutating operator routes (POST /shutdown, /evict/..., /probe) accept besides a fleet-key signature; unset: signatures only");
    public static final Setting EGRESS_ALLOW = Setting.of("CELLD_EGRESS_ALLOW", EGRESS_LIST, null,
            "Worker egress refused by default (loopback, link-local, metadata, this node, peers) that is allowed: IPs, CIDRs, host names, each [:port]");
    public static final Setting EGRESS_DENY = Setting.of("CELLD_EGRESS_DENY", EGRESS_LIST, null,
            "Worker egress refused besides the defaults (same syntax); wins over CELLD_EGRESS_ALLOW");
    public static final Setting CACHE_MB = Setting.of("CELLD_CACHE_MB", NON_NEGATIVE_INT, "64",
            "memory bound of this node's Cache API store (caches.default, caches.open) in MB; 0 stores nothing");
    public static final Setting CF_HEADERS = Setting.of("CELLD_CF_HEADERS", TEXT, null,
            "request.cf fields read from a TRUSTED load balancer's headers: field=header,... or 'cloudflare' (unset: none are read)");
    public static final Setting OTEL_ENDPOINT = Setting.of("CELLD_OTEL_ENDPOINT", HTTP_URL, null,
            "OpenTelemetry collector (OTLP over HTTP/protobuf) base URL, e.g. http://collector:4318: spans go to <url>/v1/traces; unset: no tracing");
    public static final Setting ESBUILD = Setting.computed("CELLD_ESBUILD", TEXT, "esbuild on PATH", "esbuild binary used by deploy-tool push DIR (not read by nodes)");

    /** Prefix of environment variables overriding a Worker {@code vars} entry. */
    public static final String VAR_PREFIX = "CELLD_VAR_";

    public static final List<Setting> ALL = List.of(
            BUCKET, S3_ENDPOINT, AWS_REGION, ADDR, INTERNAL_ADDR, ADVERTISE, NODE, WATCH, TTL_MS, CLOCK_SKEW_MS, RELEASES,
            SHUTDOWN_DRAIN_MS, WAKER_TICK_MS, DEPLOY_POLL_MS, MAX_RESIDENT_CELLS, RESIDENT_LOW_WATER, MAX_RSS_MB, ACTIVATIONS,
            ACTIVATION_DEADLINE_MS, OUTPUT_GATE, STORAGE_PROBE, HANDOFF_WARM_MS, PITR_DAYS, FENCE_EXIT,
            PLUGINS_DIR, IDLE_EVICT_MS, MAX_REQUEST_BODY_BYTES, CPU_MS, JS_THREADS, STOP_GRACE_MS, LOG_FORMAT, JIT, FILE_FSYNC, GCS_ENDPOINT, CACHE_MB, CF_HEADERS, OTEL_ENDPOINT, ESBUILD,
            OPERATOR_TOKEN, EGRESS_ALLOW, EGRESS_DENY);

    private static final Map<String, Setting> BY_ENV = new LinkedHashMap<>();
    private static final Map<String, Setting> BY_KEY = new LinkedHashMap<>();

    static {
        for (Setting s : ALL) {
            BY_ENV.put(s.env(), s);
            BY_KEY.put(s.key(), s);
        }
    }

    public static Optional<Setting> byEnv(String env) {
        return Optional.ofNullable(BY_ENV.get(env));
    }

    public static Optional<Setting> byKey(String key) {
        return Optional.ofNullable(BY_KEY.get(key));
    }

    /** The {@code --help} text: every setting with its default. */
    public static String help() {
        StringBuilder b = new StringBuilder();
        b.append("Settings (environment variable | node.json key | default):\n");
        for (Setting s : ALL) {
            b.append(String.format("  %-30s %-24s default: %s%n      %s%n", s.env(), s.key(), s.defaultText(), s.description()));
        }
        b.append(String.format("  %-30s %-24s default: (none)%n      %s%n", VAR_PREFIX + "<NAME>", "vars.<NAME>",
                "overrides the Worker vars entry NAME"));
        b.append("Environment variables override node.json. Invalid values stop the node with exit code 2.\n");
        return b.toString();
    }
}
