package dev.cellgate.core.logic;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What Node.js compatibility a Worker gets from its compatibility date and flags, decided the way
 * workerd decides it (SPEC §15). Pure: the bundle-time resolution in deploy-tool and the run-time
 * resolution in the JavaScript engine both ask this class, so the two can never disagree.
 *
 * <p>The facts come from workerd's compatibility flags and were checked against workerd itself
 * (miniflare 4.20260730.0, one import per module per date):
 * <ul>
 *   <li>{@code nodejs_compat} (or {@code nodejs_compat_v2}) turns the {@code node:} modules on;
 *       {@code nodejs_als} alone gives {@code node:async_hooks} only. Without any of them only
 *       {@code node:process} resolves (a minimal object), everything else is "No such module".</li>
 *   <li>{@code nodejs_compat_v2} is implied by {@code nodejs_compat} from 2024-09-23 (disable with
 *       {@code no_nodejs_compat_v2}): bare specifiers ({@code "buffer"}) then resolve like
 *       {@code "node:buffer"} (except the prefix-only {@code node:test}), {@code node:sys} appears,
 *       and the globals {@code Buffer}, {@code process}, {@code global}, {@code setImmediate},
 *       {@code clearImmediate} exist.</li>
 *   <li>{@code process.env} holds the Worker's vars and secrets from 2025-04-01
 *       ({@code nodejs_compat_populate_process_env} / {@code nodejs_compat_do_not_populate_process_env}).</li>
 *   <li>From 2026-02-10 the global {@code setTimeout}/{@code setInterval} are node:timers' and
 *       return {@code Timeout} objects ({@code enable_nodejs_global_timers} / {@code no_nodejs_global_timers}).</li>
 *   <li>The full {@code process} object (an EventEmitter with {@code version}, {@code cwd()},
 *       {@code hrtime}…) from 2025-09-15 ({@code enable_nodejs_process_v2}).</li>
 *   <li>Many modules are gated by a flag pair and a date from which {@code nodejs_compat} implies
 *       them ({@link #GATED}).</li>
 * </ul>
 */
public final class NodeCompat {
    /** What an import of a Node built-in gets. */
    public enum Availability {
        /** workerd provides it and so does cellgate. */
        PROVIDED,
        /** workerd provides it at this date; cellgate does not implement it (the import fails naming it). */
        NOT_IMPLEMENTED,
        /** workerd does not provide it under this configuration: "No such module". */
        ABSENT
    }

    /** A module gated by its own flag pair, implied by {@code nodejs_compat} from {@code date}. */
    record Gate(String enableFlag, String disableFlag, String date) {
    }

    /** Modules every {@code nodejs_compat} Worker has (workerd at any date). */
    static final Set<String> BASE = Set.of("assert", "assert/strict", "async_hooks", "buffer", "constants", "crypto",
            "diagnostics_channel", "dns", "dns/promises", "events", "fs/promises", "module", "net", "path", "path/posix",
            "path/win32", "process", "querystring", "stream", "stream/consumers", "stream/promises", "stream/web",
            "string_decoder", "test", "timers", "timers/promises", "tls", "url", "util", "util/types", "zlib");

    /** Modules behind their own flag and date; {@code nodejs_compat} implies the flag from the date on. */
    static final Map<String, Gate> GATED = gated();

    /** Resolve only with the {@code node:} prefix, as in Node itself. */
    static final Set<String> PREFIX_ONLY = Set.of("test", "sqlite");

    /** The modules cellgate implements (the rest of what workerd offers fails to import, naming itself). */
    public static final Set<String> IMPLEMENTED = Set.of("assert", "assert/strict", "async_hooks", "buffer", "crypto",
            "diagnostics_channel", "events", "os", "path", "path/posix", "path/win32", "process", "punycode", "querystring",
            "stream", "stream/consumers", "stream/promises", "stream/web", "string_decoder", "sys", "timers",
            "timers/promises", "url", "util", "util/types", "zlib");

    static final String V2_DATE = "2024-09-23";
    static final String POPULATE_ENV_DATE = "2025-04-01";
    static final String PROCESS_V2_DATE = "2025-09-15";
    static final String GLOBAL_TIMERS_DATE = "2026-02-10";

    private final boolean nodejsCompat;
    private final boolean v2;
    private final boolean als;
    private final boolean populateProcessEnv;
    private final boolean processV2;
    private final boolean globalTimers;
    private final Set<String> flags;
    private final String date;

    private NodeCompat(String date, Set<String> flags) {
        this.date = date == null ? "" : date;
        this.flags = flags;
        boolean compat = flags.contains("nodejs_compat") && !flags.contains("no_nodejs_compat");
        this.v2 = !flags.contains("no_nodejs_compat_v2")
                && (flags.contains("nodejs_compat_v2") || (compat && this.date.compareTo(V2_DATE) >= 0));
        this.nodejsCompat = compat || v2;
        this.als = nodejsCompat || (flags.contains("nodejs_als") && !flags.contains("no_nodejs_als"));
        this.populateProcessEnv = compat && implied("nodejs_compat_populate_process_env",
                "nodejs_compat_do_not_populate_process_env", POPULATE_ENV_DATE);
        this.processV2 = compat && implied("enable_nodejs_process_v2", "disable_nodejs_process_v2", PROCESS_V2_DATE);
        this.globalTimers = compat && implied("enable_nodejs_global_timers", "no_nodejs_global_timers", GLOBAL_TIMERS_DATE);
    }

    public static NodeCompat of(String compatibilityDate, List<String> compatibilityFlags) {
        return new NodeCompat(compatibilityDate, Set.copyOf(compatibilityFlags));
    }

    /** A flag implied by {@code nodejs_compat} from {@code from} on: the explicit flags win over the date. */
    private boolean implied(String enable, String disable, String from) {
        if (flags.contains(disable)) {
            return false;
        }
        return flags.contains(enable) || date.compareTo(from) >= 0;
    }

    /** {@code nodejs_compat} or {@code nodejs_compat_v2}: the {@code node:} modules are on. */
    public boolean nodejsCompat() {
        return nodejsCompat;
    }

    /** Bare specifiers, {@code node:sys} and the Node globals ({@code Buffer}, {@code process}…). */
    public boolean v2() {
        return v2;
    }

    /** AsyncLocalStorage is available ({@code nodejs_compat} or {@code nodejs_als}): contexts need async context tracking. */
    public boolean asyncLocalStorage() {
        return als;
    }

    public boolean populateProcessEnv() {
        return populateProcessEnv;
    }

    public boolean processV2() {
        return processV2;
    }

    /** The global setTimeout/setInterval are node:timers' (returning Timeout objects), from 2026-02-10. */
    public boolean globalTimers() {
        return globalTimers;
    }

    /**
     * The Node module a specifier names under this configuration, without its {@code node:} prefix,
     * or null when the specifier is no Node built-in here (a bare {@code "buffer"} before
     * {@code nodejs_compat_v2} is an ordinary package name). Says nothing about availability.
     */
    public static String builtinName(String specifier, boolean bareAllowed) {
        if (specifier.startsWith("node:")) {
            String name = specifier.substring(5);
            return isNodeBuiltin(name) ? name : null;
        }
        if (!bareAllowed || PREFIX_ONLY.contains(specifier)) {
            return null;
        }
        return isNodeBuiltin(specifier) ? specifier : null;
    }

    /** The module name (no prefix) this Worker's import of {@code specifier} means, or null when it is no built-in here. */
    public String resolve(String specifier) {
        return builtinName(specifier, v2);
    }

    /** Every Node built-in that a bare specifier can name (all but the prefix-only ones), whatever workerd offers. */
    public static Set<String> bareBuiltins() {
        Set<String> out = new java.util.TreeSet<>(BASE);
        out.addAll(GATED.keySet());
        out.add("sys");
        out.removeAll(PREFIX_ONLY);
        return out;
    }

    /** Whether {@code name} (no prefix) is one of Node's built-in modules, whatever workerd offers. */
    public static boolean isNodeBuiltin(String name) {
        return BASE.contains(name) || GATED.containsKey(name) || name.equals("sys");
    }

    /** What an import of the Node module {@code name} (no prefix) gets under this configuration. */
    public Availability availability(String name) {
        boolean offered;
        if (name.equals("process")) {
            offered = true; // workerd resolves node:process even without nodejs_compat
        } else if (!nodejsCompat) {
            offered = als && name.equals("async_hooks");
        } else if (BASE.contains(name)) {
            offered = true;
        } else if (name.equals("sys")) {
            offered = v2;
        } else {
            Gate g = GATED.get(name);
            offered = g != null && !flags.contains(g.disableFlag())
                    && (flags.contains(g.enableFlag()) || (flags.contains("nodejs_compat") && date.compareTo(g.date()) >= 0));
        }
        if (!offered) {
            return Availability.ABSENT;
        }
        return IMPLEMENTED.contains(name) ? Availability.PROVIDED : Availability.NOT_IMPLEMENTED;
    }

    /** workerd's message for a module it does not have, for {@code specifier} as written. */
    public static String noSuchModule(String specifier) {
        return "No such module \"" + specifier + "\".";
    }

    private static Map<String, Gate> gated() {
        Map<String, Gate> m = new LinkedHashMap<>();
        gate(m, "enable_nodejs_http_modules", "disable_nodejs_http_modules", "2025-08-15", "http", "https");
        gate(m, "enable_nodejs_http2_module", "disable_nodejs_http2_module", "2025-09-01", "http2");
        gate(m, "enable_nodejs_fs_module", "disable_nodejs_fs_module", "2025-09-15", "fs");
        gate(m, "enable_nodejs_os_module", "disable_nodejs_os_module", "2025-09-15", "os");
        gate(m, "enable_nodejs_console_module", "disable_nodejs_console_module", "2025-09-21", "console");
        gate(m, "enable_nodejs_vm_module", "disable_nodejs_vm_module", "2025-10-01", "vm");
        gate(m, "enable_nodejs_domain_module", "disable_nodejs_domain_module", "2025-12-04", "domain");
        gate(m, "enable_nodejs_punycode_module", "disable_nodejs_punycode_module", "2025-12-04", "punycode");
        gate(m, "enable_nodejs_cluster_module", "disable_nodejs_cluster_module", "2025-12-04", "cluster");
        gate(m, "enable_nodejs_wasi_module", "disable_nodejs_wasi_module", "2025-12-04", "wasi");
        gate(m, "enable_nodejs_trace_events_module", "disable_nodejs_trace_events_module", "2025-12-04", "trace_events");
        gate(m, "enable_nodejs_dgram_module", "disable_nodejs_dgram_module", "2026-01-29", "dgram");
        gate(m, "enable_nodejs_inspector_module", "disable_nodejs_inspector_module", "2026-01-29", "inspector",
                "inspector/promises");
        gate(m, "enable_nodejs_sqlite_module", "disable_nodejs_sqlite_module", "2026-01-29", "sqlite");
        gate(m, "enable_nodejs_child_process_module", "disable_nodejs_child_process_module", "2026-03-17", "child_process");
        gate(m, "enable_nodejs_perf_hooks_module", "disable_nodejs_perf_hooks_module", "2026-03-17", "perf_hooks");
        gate(m, "enable_nodejs_readline_module", "disable_nodejs_readline_module", "2026-03-17", "readline",
                "readline/promises");
        gate(m, "enable_nodejs_repl_module", "disable_nodejs_repl_module", "2026-03-17", "repl");
        gate(m, "enable_nodejs_tty_module", "disable_nodejs_tty_module", "2026-03-17", "tty");
        gate(m, "enable_nodejs_v8_module", "disable_nodejs_v8_module", "2026-03-17", "v8");
        gate(m, "enable_nodejs_worker_threads_module", "disable_nodejs_worker_threads_module", "2026-03-17", "worker_threads");
        return Map.copyOf(m);
    }

    private static void gate(Map<String, Gate> m, String enable, String disable, String date, String... modules) {
        for (String name : modules) {
            m.put(name, new Gate(enable, disable, date));
        }
    }
}
