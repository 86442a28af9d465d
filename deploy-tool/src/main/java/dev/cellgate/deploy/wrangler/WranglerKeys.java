package dev.cellgate.deploy.wrangler;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every top-level key of Wrangler's configuration (4.86.0's {@code config-schema.json}), in exactly
 * one of SPEC §14's classes, with where it may appear and the reason. docs/configuration.md shows
 * this table; {@code WranglerKeysTest} checks it against the schema's key list and pushes each key.
 */
public final class WranglerKeys {
    /** What a push does with a key. */
    public enum KeyClass {
        /** read and applied */
        IMPLEMENTED,
        /** accepted, recorded in the manifest's {@code hosting}, one note per push */
        METADATA,
        /** refused by name, with what is missing */
        REFUSED
    }

    /** Where a key may be written, and what a named environment does with it (Wrangler's rules). */
    public enum Scope {
        /** only at the top level; in {@code env.<name>} it is refused */
        TOP_ONLY,
        /** an environment inherits the top-level value unless it sets its own */
        INHERITED,
        /** an environment does NOT inherit it: it must be repeated in {@code env.<name>} */
        NOT_INHERITED
    }

    public record Key(String name, KeyClass keyClass, Scope scope, String reason) {
    }

    private static final Map<String, Key> KEYS = new LinkedHashMap<>();

    private static void implemented(String name, Scope scope, String reason) {
        KEYS.put(name, new Key(name, KeyClass.IMPLEMENTED, scope, reason));
    }

    private static void metadata(String name, Scope scope, String reason) {
        KEYS.put(name, new Key(name, KeyClass.METADATA, scope, reason));
    }

    private static void refused(String name, Scope scope, String reason) {
        KEYS.put(name, new Key(name, KeyClass.REFUSED, scope, reason));
    }

    static {
        Scope top = Scope.TOP_ONLY;
        Scope inh = Scope.INHERITED;
        Scope own = Scope.NOT_INHERITED;
        // 1. implemented
        implemented("name", inh, "the Worker's name: part of every idFromName and of secrets/<name>/; in env.<e> it defaults to <name>-<e>");
        implemented("main", inh, "the entry module, bundled with esbuild; without it a project with assets is assets only");
        implemented("compatibility_date", inh, "selects runtime behaviour, as on workerd");
        implemented("compatibility_flags", inh, "the flags listed under Compatibility flags below; any other flag is refused by name");
        implemented("durable_objects", own, "Durable Object namespaces of classes this Worker exports");
        implemented("migrations", inh, "recorded in the manifest; a class's cells are created on first use");
        implemented("vars", own, "strings on env (and in process.env under nodejs_compat)");
        implemented("secrets", own, "secrets.required: a push fails, naming every one, while any is not set (deploy-tool secret put)");
        implemented("triggers", inh, "triggers.crons: scheduled() runs once per occurrence across the fleet, in UTC, with at most one catch-up after an outage (docs/configuration.md \"Cron triggers\")");
        implemented("kv_namespaces", own, "KV namespaces stored in the fleet bucket under kv/<id>/ (docs/bindings.md); preview_id is not used");
        implemented("r2_buckets", own, "R2 buckets stored in the fleet bucket under r2/<bucket_name>/ (docs/bindings.md); jurisdiction is refused, preview_bucket_name is not used");
        implemented("d1_databases", own, "each D1 database is a cell of its own, named by database_id (else database_name), replicated and moved like any Durable Object (docs/d1.md); preview_database_id is not used");
        implemented("queues", own, "queues.producers and queues.consumers: each queue is a cell of its own, delivered to queue() one batch at a time (docs/queues.md); max_concurrency above 1 and pull consumers are refused");
        implemented("workflows", own, "each Workflow instance is a cell of a built-in Durable Object class running the Worker's WorkflowEntrypoint with Cloudflare's replay model (docs/workflows.md); script_name may only name this Worker");
        implemented("services", own, "service bindings to this Worker's own default export or named WorkerEntrypoints (fetch and RPC, in process; docs/services.md); a binding to another Worker is refused by name: a fleet runs one Worker");
        implemented("assets", inh, "static assets served before the Worker with Cloudflare's routing, and the ASSETS binding (docs/assets.md)");
        implemented("define", own, "esbuild --define");
        implemented("alias", inh, "esbuild --alias; a relative path is relative to the config");
        implemented("tsconfig", inh, "esbuild --tsconfig");
        implemented("minify", inh, "esbuild --minify");
        implemented("keep_names", inh, "esbuild --keep-names (default true, as in Wrangler)");
        implemented("jsx_factory", inh, "esbuild --jsx-factory");
        implemented("jsx_fragment", inh, "esbuild --jsx-fragment");
        implemented("rules", inh, "module types of imported and found files");
        implemented("find_additional_modules", inh, "upload every file the rules type under base_dir");
        implemented("base_dir", inh, "the module root");
        implemented("no_bundle", inh, "push main as it is, with the files the rules type");
        implemented("upload_source_maps", inh, "stack traces name the original sources");
        implemented("build", inh, "build.command runs before bundling (build.cwd; build.watch_dir: what deploy-tool dev watches)");
        implemented("limits", inh, "limits.cpu_ms (1 to 300000): the CPU time each event of the Worker may use, in place of the node's CELLD_CPU_MS (docs/configuration.md \"CPU limit per event\"); limits.subrequests is refused");
        implemented("env", top, "named environments: deploy-tool push --env NAME");
        implemented("legacy_env", top, "false: Wrangler's deprecated service environments, the Worker keeps its top-level name");
        // 2. hosting metadata: no effect on a self-hosted fleet
        metadata("$schema", top, "it only points editors at Wrangler's schema");
        metadata("account_id", inh, "there is no Cloudflare account: the fleet is yours");
        metadata("routes", inh, "the L4 balancer in front of the fleet decides which hosts reach it");
        metadata("route", inh, "the L4 balancer in front of the fleet decides which hosts reach it");
        metadata("zone_id", inh, "there are no Cloudflare zones: the L4 balancer in front routes");
        metadata("workers_dev", inh, "there is no workers.dev subdomain: nodes serve on CELLD_ADDR");
        metadata("preview_urls", inh, "there are no preview URLs: every node serves the current deployment");
        metadata("previews", inh, "there are no preview deployments: every node serves the current deployment");
        metadata("placement", inh, "a node serves every request it receives; where nodes run is your choice");
        metadata("compliance_region", inh, "the fleet runs where you run it");
        metadata("first_party_worker", inh, "a Cloudflare-internal designation");
        metadata("logpush", inh, "there is no Logpush: nodes write JSON log lines (CELLD_LOG_FORMAT)");
        metadata("observability", inh, "observability.logs: nodes always write JSON log lines (CELLD_LOG_FORMAT); observability.traces: nodes export no traces yet (OTLP export is not implemented)");
        metadata("tail_consumers", own, "there are no Tail Workers: consume the nodes' JSON logs");
        metadata("streaming_tail_consumers", own, "there are no Tail Workers: consume the nodes' JSON logs");
        metadata("send_metrics", top, "it is Wrangler's own usage telemetry; deploy-tool sends none");
        metadata("keep_vars", top, "there is no dashboard: the config is the only source of vars");
        metadata("dev", top, "it configures wrangler dev's local server, not a deployment");
        // 3. refused, with what is missing
        refused("ai", own, "Workers AI needs Cloudflare's inference service");
        refused("ai_search", own, "AI Search needs Cloudflare's service");
        refused("ai_search_namespaces", own, "AI Search needs Cloudflare's service");
        refused("analytics_engine_datasets", own, "Analytics Engine is a Cloudflare service with no self-hosted store here");
        refused("artifacts", own, "Artifacts (git storage) is not implemented");
        refused("browser", own, "Browser Rendering needs Cloudflare's headless browsers");
        refused("cloudchamber", own, "Containers (Cloudchamber) are not implemented");
        refused("containers", own, "Containers are not implemented");
        refused("dispatch_namespaces", own, "Workers for Platforms needs several Workers per fleet; a fleet runs one");
        refused("flagship", own, "Flagship feature flags are a Cloudflare service");
        refused("hyperdrive", own, "Hyperdrive's pooled database connections are not implemented");
        refused("images", own, "the Images binding needs Cloudflare's image service");
        refused("media", own, "Media Transformations need Cloudflare's service");
        refused("mtls_certificates", own, "client certificates for outbound fetch are not implemented");
        refused("pipelines", own, "Pipelines are not implemented");
        refused("ratelimits", own, "the rate-limit binding is not implemented");
        refused("secrets_store_secrets", own, "Secrets Store is not implemented: use secrets (deploy-tool secret put)");
        refused("send_email", own, "Email Routing is not implemented");
        refused("stream", own, "the Stream binding needs Cloudflare Stream");
        refused("unsafe", own, "unsafe bindings and metadata are Cloudflare-internal");
        refused("unsafe_hello_world", own, "an example binding of Wrangler's, not a product");
        refused("vectorize", own, "Vectorize indexes are not implemented");
        refused("version_metadata", own, "the version metadata binding is not implemented yet");
        refused("vpc_networks", own, "Workers VPC is not implemented");
        refused("vpc_services", own, "Workers VPC is not implemented");
        refused("worker_loaders", own, "dynamic Worker loading is not implemented");
        refused("logfwdr", inh, "a Cloudflare-internal log forwarding binding");
        refused("python_modules", inh, "Python Workers are not supported");
        refused("preserve_file_names", inh, "copied modules keep esbuild's name-HASH form; keeping file names is not implemented");
        refused("site", top, "Workers Sites are deprecated by Cloudflare: use assets");
        refused("wasm_modules", top, "a service-worker-format binding: import the .wasm file as a module instead");
        refused("text_blobs", top, "a service-worker-format binding: import the file as a Text module instead");
        refused("data_blobs", top, "a service-worker-format binding: import the file as a Data module instead");
        refused("pages_build_output_dir", top, "a Cloudflare Pages project, not a Worker: cellgate runs Workers");
    }

    private WranglerKeys() {
    }

    /** Every key, in the table's order. */
    public static Map<String, Key> all() {
        return Collections.unmodifiableMap(KEYS);
    }

    /** The key, or null when Wrangler has no such key. */
    public static Key get(String name) {
        return KEYS.get(name);
    }
}
