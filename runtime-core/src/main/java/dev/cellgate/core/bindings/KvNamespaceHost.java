package dev.cellgate.core.bindings;

import dev.cellgate.core.logic.KvRules;
import dev.cellgate.core.logic.OrderedKeyCodec;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.spi.js.BindingCallException;
import dev.cellgate.core.spi.js.BindingMethod;
import dev.cellgate.core.time.Ticker;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One instance's KV namespace: the host methods {@code kv_namespace.js} calls. Each checks the
 * call against Cloudflare's limits ({@link KvRules}) and then reads or writes the namespace's
 * objects in the fleet bucket: {@code kv/<namespace_id>/<OrderedKeyCodec key>}, a
 * {@link StoredEntry} whose header holds the expiration (epoch seconds) and the metadata (its
 * JSON text). Reads go to the bucket every time (no node cache yet), so a read after a resolved
 * put sees it on every node; an expired entry reads as missing (its object stays until overwritten or deleted).
 */
public final class KvNamespaceHost {
    private final BucketStore bucket;
    private final String binding;
    private final String prefix;
    private final Ticker clock;
    private final boolean brokenEarlyAck;

    KvNamespaceHost(BucketStore bucket, String binding, String namespaceId, Ticker clock, boolean brokenEarlyAck) {
        this.brokenEarlyAck = brokenEarlyAck;
        this.bucket = bucket;
        this.binding = binding;
        this.prefix = KvNamespaceProvider.prefix(namespaceId);
        this.clock = clock;
    }

    /** One entry read: the value's bytes, its metadata's JSON text (or null) and its expiration (-1: none). */
    public static final class Entry {
        private final ByteBuffer value;
        private final String metadata;
        private final long expiration;

        Entry(byte[] value, String metadata, long expiration) {
            this.value = ByteBuffer.wrap(value);
            this.metadata = metadata;
            this.expiration = expiration;
        }

        @BindingMethod
        public ByteBuffer value() {
            return value;
        }

        @BindingMethod
        public String metadata() {
            return metadata;
        }

        @BindingMethod
        public double expiration() {
            return expiration;
        }
    }

    /** The entry of {@code key}, or null. {@code cacheTtl} (NaN: absent) is checked; every read goes to the bucket. */
    @BindingMethod
    public CompletionStage<Entry> get(String key, double cacheTtl) {
        KvRules.Refusal r = first(KvRules.key("GET", key), KvRules.cacheTtl("GET", cacheTtl));
        if (r != null) {
            return refuse(r);
        }
        return read(key);
    }

    /** Checks a bulk get of {@code count} keys as {@code type} (then read key by key with {@link #get}). */
    @BindingMethod
    public CompletionStage<Object> bulk(int count, String type) {
        KvRules.Refusal r = KvRules.bulk(count, type);
        return r == null ? CompletableFuture.completedFuture(null) : refuse(r);
    }

    @BindingMethod
    public CompletionStage<Object> put(String key, byte[] value, double expiration, double expirationTtl, String metadata) {
        long now = clock.nowMs() / 1000;
        KvRules.Refusal r = first(KvRules.key("PUT", key), KvRules.expiration(expiration, expirationTtl, now),
                metadata == null ? null : KvRules.metadata(metadata.getBytes(StandardCharsets.UTF_8).length), KvRules.value(value.length));
        if (r != null) {
            return refuse(r);
        }
        JsonObject header = new JsonObject();
        long at = KvRules.expiresAt(expiration, expirationTtl, now);
        if (at >= 0) {
            header.put("expiration", at);
        }
        if (metadata != null) {
            header.put("metadata", metadata);
        }
        CompletableFuture<WriteOutcome> put;
        try {
            put = store().put(objectKey(key), new StoredEntry(header, value).encode(StoredEntry.KV));
        } catch (BindingCallException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (brokenEarlyAck) {
            return CompletableFuture.completedFuture(null); // BROKEN ON PURPOSE: acknowledged before the bucket has it
        }
        return put.thenApply(o -> {
            if (!o.written()) {
                throw new BindingCallException("Error", "KV PUT failed: the fleet bucket did not confirm the write (" + o
                        + "); it may or may not have happened");
            }
            return null;
        });
    }

    @BindingMethod
    public CompletionStage<Object> delete(String key) {
        KvRules.Refusal r = KvRules.key("DELETE", key);
        if (r != null) {
            return refuse(r);
        }
        try {
            return store().delete(objectKey(key)).thenApply(v -> null);
        } catch (BindingCallException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * A page of keys as JSON ({@code {"keys":[{name, expiration?, metadata?}], "list_complete", "cursor"?}},
     * metadata as its JSON text): keys starting with {@code prefix} (null: all) in byte order,
     * at most {@code limit} (NaN or 0: 1,000). The cursor wraps the bucket's own.
     */
    @BindingMethod
    public CompletionStage<String> list(String keyPrefix, double limit, String cursor) {
        KvRules.Refusal r = KvRules.listLimit(limit);
        if (r != null) {
            return refuse(r);
        }
        String wanted = keyPrefix == null ? "" : keyPrefix;
        String bucketCursor;
        try {
            bucketCursor = cursor == null || cursor.isEmpty() ? null : new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            store();
        } catch (IllegalArgumentException e) {
            return refuse(new KvRules.Refusal("Error", "KV GET failed: 400 Invalid cursor"));
        } catch (BindingCallException e) {
            return CompletableFuture.failedFuture(e);
        }
        JsonArray keys = new JsonArray();
        return page(prefix + OrderedKeyCodec.listPrefix(wanted), wanted, bucketCursor, KvRules.listLimitOrDefault(limit), keys)
                .thenApply(next -> {
                    JsonObject out = new JsonObject().put("keys", keys).put("list_complete", next == null);
                    if (next != null) {
                        out.put("cursor", Base64.getUrlEncoder().withoutPadding().encodeToString(next.getBytes(StandardCharsets.UTF_8)));
                    }
                    return out.encode();
                });
    }

    /**
     * Fills {@code keys} up to {@code limit}, one bucket page at a time; completes with the bucket
     * cursor to resume at, or null at the end. The names that start with {@code wanted} are one
     * contiguous run of the bucket's order (the encoding keeps it), so the first name past the run
     * ends the listing; a full page asks for one more name to tell whether any is left.
     */
    private CompletableFuture<String> page(String bucketPrefix, String wanted, String cursor, int limit, JsonArray keys) {
        return bucket.list(bucketPrefix, cursor, limit - keys.size()).thenCompose((ListPage p) -> {
            List<CompletableFuture<JsonObject>> reads = new ArrayList<>();
            boolean pastRun = false;
            for (String k : p.keys()) {
                String name = OrderedKeyCodec.decode(k.substring(prefix.length()));
                if (name.startsWith(wanted)) {
                    reads.add(read(name).thenApply(e -> e == null ? null : listed(name, e)));
                } else if (!reads.isEmpty() || keys.size() > 0) {
                    pastRun = true;
                    break;
                }
            }
            boolean ended = pastRun;
            return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenCompose(v -> {
                reads.forEach(f -> {
                    if (f.join() != null) {
                        keys.add(f.join());
                    }
                });
                if (ended || p.last()) {
                    return CompletableFuture.completedFuture(null);
                }
                if (keys.size() < limit) {
                    return page(bucketPrefix, wanted, p.nextCursor(), limit, keys);
                }
                return bucket.list(bucketPrefix, p.nextCursor(), 1).thenApply(peek -> peek.keys().stream()
                        .anyMatch(k -> OrderedKeyCodec.decode(k.substring(prefix.length())).startsWith(wanted)) ? p.nextCursor() : null);
            });
        });
    }

    private static JsonObject listed(String name, Entry e) {
        JsonObject o = new JsonObject().put("name", name);
        if (e.expiration >= 0) {
            o.put("expiration", e.expiration);
        }
        if (e.metadata != null) {
            o.put("metadata", e.metadata);
        }
        return o;
    }

    private CompletableFuture<Entry> read(String key) {
        String k;
        try {
            k = objectKey(key);
            store();
        } catch (BindingCallException e) {
            return CompletableFuture.failedFuture(e);
        }
        return bucket.get(k).thenCompose(o -> {
            if (o.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            StoredEntry s = StoredEntry.decode(StoredEntry.KV, o.get().bytes(), k);
            long exp = s.header().getLong("expiration", -1L);
            if (KvRules.expired(exp, clock.nowMs() / 1000)) {
                // not deleted here: a read never writes (a put on another node may have just replaced it)
                return CompletableFuture.completedFuture(null);
            }
            return CompletableFuture.completedFuture(new Entry(s.value(), s.header().getString("metadata"), exp));
        });
    }

    private String objectKey(String key) {
        return prefix + OrderedKeyCodec.encode(key);
    }

    private BucketStore store() {
        if (bucket == null) {
            throw new BindingCallException("Error", "KV binding " + binding + " has no fleet bucket in this process (deploy-tool's load check)");
        }
        return bucket;
    }

    private static KvRules.Refusal first(KvRules.Refusal... rs) {
        for (KvRules.Refusal r : rs) {
            if (r != null) {
                return r;
            }
        }
        return null;
    }

    static <T> CompletableFuture<T> refuse(KvRules.Refusal r) {
        return CompletableFuture.failedFuture(new BindingCallException(r.jsName(), r.message()));
    }
}
