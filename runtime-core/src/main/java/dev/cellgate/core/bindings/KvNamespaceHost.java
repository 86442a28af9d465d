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
 * JSON text). A read is answered from the node's {@link KvReadCache} while its copy is younger
 * than the read's {@code cacheTtl} (default 60 s), else from the bucket: a put resolved on one node is
 * read on another at once unless that node holds a copy of the key younger than the cacheTtl
 * (Cloudflare's eventual consistency, SPEC §17); a node reads its own puts and deletes back at once.
 * An expired entry reads as missing (its object stays until overwritten or deleted).
 */
public final class KvNamespaceHost {
    private final BucketStore bucket;
    private final String binding;
    private final String prefix;
    private final Ticker clock;
    private final boolean brokenEarlyAck;
    private final KvReadCache cache;

    KvNamespaceHost(BucketStore bucket, String binding, String namespaceId, Ticker clock, KvReadCache cache, boolean brokenEarlyAck) {
        this.brokenEarlyAck = brokenEarlyAck;
        this.cache = cache;
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

        static Entry of(KvReadCache.Copy c) {
            return new Entry(c.valueCopy(), c.metadata(), c.expiration()); // the reader may change its bytes
        }

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

    /** The entry of {@code key}, or null; from this node's copy when it is younger than {@code cacheTtl} (NaN: absent, 60 s). */
    @BindingMethod
    public CompletionStage<Entry> get(String key, double cacheTtl) {
        KvRules.Refusal r = first(KvRules.key("GET", key), KvRules.cacheTtl("GET", cacheTtl));
        if (r != null) {
            return refuse(r);
        }
        return read(key, cacheTtl, true);
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
        String k;
        try {
            k = objectKey(key);
            put = store().put(k, new StoredEntry(header, value).encode(StoredEntry.KV));
        } catch (BindingCallException e) {
            return CompletableFuture.failedFuture(e);
        }
        cache.writeBegins(k);
        KvReadCache.Copy written = new KvReadCache.Copy(value.length <= KvReadCache.MAX_VALUE_BYTES ? value.clone() : value, metadata, at);
        put = put.whenComplete((o, e) -> cache.writeEnded(k, written, e == null && o.written(), clock.nowMs()));
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
            String k = objectKey(key);
            CompletableFuture<Void> deleted = store().delete(k);
            cache.writeBegins(k);
            return deleted.whenComplete((v, e) -> cache.writeEnded(k, null, e == null, clock.nowMs())).thenApply(v -> null);
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
                    reads.add(read(name, Double.NaN, false).thenApply(e -> e == null ? null : listed(name, e)));
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

    /** @param cached whether this node's copy may answer (a list reads what it listed from the bucket itself) */
    private CompletableFuture<Entry> read(String key, double cacheTtl, boolean cached) {
        String k;
        try {
            k = objectKey(key);
            store();
        } catch (BindingCallException e) {
            return CompletableFuture.failedFuture(e);
        }
        KvReadCache.Hit hit = cached ? cache.lookup(k, clock.nowMs(), cacheTtl) : null;
        if (hit != null) {
            return CompletableFuture.completedFuture(live(hit.copy()));
        }
        long ticket = cache.readBegins();
        return bucket.get(k).thenApply(o -> {
            KvReadCache.Copy copy = null;
            if (o.isPresent()) {
                StoredEntry s = StoredEntry.decode(StoredEntry.KV, o.get().bytes(), k);
                copy = new KvReadCache.Copy(s.value(), s.header().getString("metadata"), s.header().getLong("expiration", -1L));
            }
            cache.readAnswered(k, ticket, copy, clock.nowMs());
            return live(copy);
        });
    }

    /** What a read answers with {@code copy}: null when missing or expired by now (a read never deletes: a put elsewhere may have replaced it). */
    private Entry live(KvReadCache.Copy copy) {
        return copy == null || KvRules.expired(copy.expiration(), clock.nowMs() / 1000) ? null : Entry.of(copy);
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
