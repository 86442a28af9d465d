package dev.cellgate.core.deploy;

import dev.cellgate.core.deploy.bindings.SecretTextBinding;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.SecretNames;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A Worker's secret values in the fleet bucket: {@code secrets/<worker>/<NAME>/<version>.json},
 * each {@code {"name", "version", "created_ms", "value"}}, written create-only. A put never
 * overwrites: it adds a version, and the newest version of each name is the secret in force
 * ({@link SecretNames#newest}). Older versions stay for the deployments that name them (a
 * rollback runs with the values it had) until {@link #delete} removes every version of the name.
 *
 * <p>The bucket is the trust boundary (docs/deploy.md, "Secrets"): whoever can read the bucket can
 * read these values, as they can read every cell's data. Nothing here logs a value or puts one in
 * an exception message.
 */
public final class SecretStore {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'").withZone(ZoneOffset.UTC);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final BucketStore bucket;

    public SecretStore(BucketStore bucket) {
        this.bucket = bucket;
    }

    /** A fresh version id, sortable by {@code nowMs}: {@code v-20261202T031500123Z-1a2b3c4d}. */
    public static String newVersion(long nowMs) {
        byte[] r = new byte[4];
        RANDOM.nextBytes(r);
        return "v-" + STAMP.format(Instant.ofEpochMilli(nowMs)) + "-" + HexFormat.of().formatHex(r);
    }

    /** The secrets in force for {@code worker}: name to its newest version, by name. */
    public CompletableFuture<Map<String, String>> versions(String worker) {
        return keys(Keys.secretsOf(worker)).thenApply(keys -> SecretNames.newest(worker, keys));
    }

    /** Stores {@code value} as a new version of {@code worker}'s secret {@code name}; completes with the version. */
    public CompletableFuture<String> put(String worker, String name, String value, long nowMs) {
        String problem = SecretNames.problem(name);
        if (problem != null) {
            return CompletableFuture.failedFuture(new IllegalArgumentException(problem));
        }
        String version = newVersion(nowMs);
        String key = Keys.secret(worker, name, version);
        byte[] bytes = new JsonObject().put("name", name).put("version", version).put("created_ms", nowMs).put("value", value)
                .encode().getBytes(StandardCharsets.UTF_8);
        return bucket.putIfAbsent(key, bytes).thenCompose(w -> {
            if (w.written()) {
                return CompletableFuture.completedFuture(version);
            }
            // Ambiguous may have landed: it counts only if these bytes are there. The version is fresh, so Rejected is not ours.
            return bucket.get(key).thenApply(there -> {
                if (w instanceof WriteOutcome.Ambiguous && there.isPresent() && Arrays.equals(there.get().bytes(), bytes)) {
                    return version;
                }
                throw new IllegalStateException("could not store secret " + name + " of " + worker + " in " + bucket.url() + ": "
                        + (w instanceof WriteOutcome.Ambiguous a ? a.reason() : "a value already exists under the new version " + version));
            });
        });
    }

    /** The value of one version, or empty when that version is not (or no longer) in the bucket. */
    public CompletableFuture<Optional<String>> value(String worker, String name, String version) {
        return bucket.get(Keys.secret(worker, name, version)).thenApply(o -> o.map(so -> decode(so, name, version)));
    }

    /**
     * The value of every secret the manifest names, by name; a version that is not in the bucket is
     * left out, so that {@link Deployment#toBundle(Map, Map)} refuses the load naming it.
     */
    public CompletableFuture<Map<String, String>> values(Manifest m) {
        List<SecretTextBinding> secrets = new ArrayList<>();
        m.bindings().forEach(b -> {
            if (b instanceof SecretTextBinding s) {
                secrets.add(s);
            }
        });
        List<CompletableFuture<Optional<String>>> reads = secrets.stream().map(s -> value(m.name(), s.name(), s.version())).toList();
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(x -> {
            Map<String, String> out = new LinkedHashMap<>();
            for (int i = 0; i < secrets.size(); i++) {
                String name = secrets.get(i).name();
                reads.get(i).join().ifPresent(v -> out.put(name, v));
            }
            return out;
        });
    }

    /** Deletes every stored version of {@code worker}'s secret {@code name}; completes with how many there were. */
    public CompletableFuture<Integer> delete(String worker, String name) {
        return keys(Keys.secretsOf(worker) + name + "/").thenCompose(keys -> {
            List<String> mine = keys.stream().filter(k -> {
                SecretNames.Stored s = SecretNames.parse(worker, k);
                return s != null && s.name().equals(name);
            }).toList();
            return CompletableFuture.allOf(mine.stream().map(bucket::delete).toArray(CompletableFuture[]::new))
                    .thenApply(x -> mine.size());
        });
    }

    private static String decode(StoredObject so, String name, String version) {
        try {
            JsonObject o = new JsonObject(new String(so.bytes(), StandardCharsets.UTF_8));
            if (name.equals(o.getString("name")) && version.equals(o.getString("version")) && o.getValue("value") instanceof String v) {
                return v;
            }
        } catch (RuntimeException e) {
            // reported below, without the bytes (they may hold the value)
        }
        throw new MalformedManifestException("secret " + name + " version " + version + " is not a secret record written by deploy-tool");
    }

    private CompletableFuture<List<String>> keys(String prefix) {
        return listFrom(prefix, null, new ArrayList<>());
    }

    private CompletableFuture<List<String>> listFrom(String prefix, String cursor, List<String> acc) {
        return bucket.list(prefix, cursor, 1000).thenCompose(page -> {
            acc.addAll(page.keys());
            return page.last() ? CompletableFuture.completedFuture(acc) : listFrom(prefix, page.nextCursor(), acc);
        });
    }
}
