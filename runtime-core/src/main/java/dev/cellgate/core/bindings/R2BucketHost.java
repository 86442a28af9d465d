package dev.cellgate.core.bindings;

import dev.cellgate.core.logic.OrderedKeyCodec;
import dev.cellgate.core.logic.R2Rules;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.spi.js.BindingCallException;
import dev.cellgate.core.spi.js.BindingMethod;
import dev.cellgate.core.time.Ticker;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One instance's R2 bucket: the host methods {@code r2_bucket.js} calls. An object is one fleet
 * bucket object {@code r2/<bucket_name>/<OrderedKeyCodec name>}, a {@link StoredEntry} whose header
 * is the object's metadata as JSON ({@code key, version, size, etag, uploaded} (epoch ms),
 * {@code httpMetadata}, {@code customMetadata}, {@code checksums}); the etag is the MD5 of the bytes
 * (hex), as R2's for a single-part upload. A conditional put is a compare-and-swap on the bucket
 * object, so two writers never both win a precondition.
 */
public final class R2BucketHost {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Map<String, String> DIGESTS = Map.of("md5", "MD5", "sha1", "SHA-1", "sha256", "SHA-256",
            "sha384", "SHA-384", "sha512", "SHA-512");
    private static final int CAS_TRIES = 8;

    private final BucketStore bucket;
    private final String binding;
    private final String prefix;
    private final Ticker clock;
    private final boolean brokenConditionalPut;
    private final R2Uploads uploads;

    R2BucketHost(BucketStore bucket, String binding, String bucketName, Ticker clock, boolean brokenConditionalPut) {
        this.brokenConditionalPut = brokenConditionalPut;
        this.uploads = bucket == null ? null : new R2Uploads(bucket, bucketName);
        this.bucket = bucket;
        this.binding = binding;
        this.prefix = R2BucketProvider.prefix(bucketName);
        this.clock = clock;
    }

    /** A get's answer: the metadata's JSON, and the requested bytes or null when {@code onlyIf} failed. */
    public static final class Got {
        private final String meta;
        private final ByteBuffer body;

        Got(String meta, byte[] body) {
            this.meta = meta;
            this.body = body == null ? null : ByteBuffer.wrap(body);
        }

        @BindingMethod
        public String meta() {
            return meta;
        }

        @BindingMethod
        public ByteBuffer body() {
            return body;
        }
    }

    @BindingMethod
    public CompletionStage<String> head(String key) {
        return checked("head", key).thenCompose(k -> read(key)).thenApply(o -> o.map(s -> {
            JsonObject h = s.entry.header();
            return h.copy().put("range", new JsonObject().put("offset", 0).put("length", h.getLong("size"))).encode();
        }).orElse(null));
    }

    /**
     * The object's metadata and bytes ({@code offset/length/suffix}: NaN when absent), or only its
     * metadata when {@code onlyIf} (JSON, or null) does not hold, or null when there is none.
     */
    @BindingMethod
    public CompletionStage<Got> get(String key, String onlyIf, double offset, double length, double suffix) {
        return checked("get", key).thenCompose(k -> read(key)).thenApply(o -> {
            if (o.isEmpty()) {
                return null;
            }
            JsonObject h = o.get().entry.header();
            if (onlyIf != null && !holds(new JsonObject(onlyIf), h)) {
                return new Got(h.copy().put("range", new JsonObject().put("offset", 0).put("length", h.getLong("size"))).encode(), null);
            }
            byte[] all = o.get().entry.value();
            R2Rules.Range r;
            try {
                r = R2Rules.range(all.length, offset, length, suffix);
            } catch (IllegalArgumentException e) {
                throw new BindingCallException(e instanceof R2Rules.BadRange ? "RangeError" : "Error", e.getMessage());
            }
            byte[] part = java.util.Arrays.copyOfRange(all, (int) r.offset(), (int) (r.offset() + r.length()));
            return new Got(h.copy().put("range", new JsonObject().put("offset", r.offset()).put("length", r.length())).encode(), part);
        });
    }

    /**
     * Stores {@code bytes} under {@code key}; answers the new object's metadata, or null when
     * {@code onlyIf} does not hold. {@code checksums} (JSON {@code {md5|sha1|sha256|sha384|sha512: hex}}, or null) must match the bytes.
     */
    @BindingMethod
    public CompletionStage<String> put(String key, byte[] bytes, String httpMetadata, String customMetadata, String checksums,
                                       String onlyIf) {
        return checked("put", key).thenCompose(k -> {
            JsonObject sums = new JsonObject().put("md5", hex("MD5", bytes));
            if (checksums != null) {
                for (Map.Entry<String, Object> e : new JsonObject(checksums)) {
                    String algorithm = DIGESTS.get(e.getKey());
                    if (algorithm == null) {
                        throw new BindingCallException("TypeError", "put: unknown checksum " + e.getKey());
                    }
                    String actual = hex(algorithm, bytes);
                    String given = String.valueOf(e.getValue()).toLowerCase(java.util.Locale.ROOT);
                    if (!actual.equals(given)) {
                        String label = algorithm.equals("MD5") ? "MD5" : algorithm;
                        throw new BindingCallException("Error", "put: The " + label + " checksum you specified did not match what we received.\n"
                                + "You provided a" + (label.equals("MD5") ? " " : " ") + label + " checksum with value: " + given + "\n"
                                + "Actual " + label + " was: " + actual + " (10037)");
                    }
                    sums.put(e.getKey(), actual);
                }
            }
            byte[] v = new byte[16];
            RANDOM.nextBytes(v);
            JsonObject header = new JsonObject().put("key", key).put("version", HexFormat.of().formatHex(v)).put("size", bytes.length)
                    .put("etag", sums.getString("md5")).put("uploaded", clock.nowMs())
                    .put("httpMetadata", httpMetadata == null ? new JsonObject() : new JsonObject(httpMetadata))
                    .put("customMetadata", customMetadata == null ? new JsonObject() : new JsonObject(customMetadata))
                    .put("checksums", sums);
            byte[] stored = new StoredEntry(header, bytes).encode(StoredEntry.R2);
            if (onlyIf == null) {
                return bucket.put(k, stored).thenApply(o -> confirmed(o, header));
            }
            return conditionalPut(k, stored, header, new JsonObject(onlyIf), CAS_TRIES);
        });
    }

    private CompletableFuture<String> conditionalPut(String k, byte[] stored, JsonObject header, JsonObject onlyIf, int tries) {
        return bucket.get(k).thenCompose(cur -> {
            JsonObject h = cur.map(o -> StoredEntry.decode(StoredEntry.R2, o.bytes(), k).header()).orElse(null);
            if (!holds(onlyIf, h)) {
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<WriteOutcome> w = brokenConditionalPut ? bucket.put(k, stored) // BROKEN ON PURPOSE: judge, then overwrite
                    : cur.isEmpty() ? bucket.putIfAbsent(k, stored) : bucket.putIfVersion(k, stored, cur.get().version());
            return w.thenCompose(o -> {
                if (o instanceof WriteOutcome.Rejected && tries > 1) {
                    return conditionalPut(k, stored, header, onlyIf, tries - 1); // another writer won: judge again
                }
                return CompletableFuture.completedFuture(confirmed(o, header));
            });
        });
    }

    private String confirmed(WriteOutcome o, JsonObject header) {
        if (!o.written()) {
            throw new BindingCallException("Error", "put: the fleet bucket did not confirm the write (" + o + "); it may or may not have happened");
        }
        return header.encode();
    }

    /** Starts a multipart upload of {@code key}; answers its upload id. */
    @BindingMethod
    public CompletionStage<String> createUpload(String key, String httpMetadata, String customMetadata) {
        return checked("createMultipartUpload", key).thenCompose(k -> uploads.create(key,
                httpMetadata == null ? new JsonObject() : new JsonObject(httpMetadata),
                customMetadata == null ? new JsonObject() : new JsonObject(customMetadata)));
    }

    /** Stores part {@code partNumber} of an upload; answers the part's etag. */
    @BindingMethod
    public CompletionStage<String> uploadPart(String key, String uploadId, double partNumber, byte[] bytes) {
        String bad = R2Rules.partNumber(partNumber);
        if (bad != null) {
            return CompletableFuture.failedFuture(new BindingCallException("TypeError", bad));
        }
        return checked("uploadPart", key).thenCompose(k -> uploads.part(key, uploadId, (int) partNumber, bytes));
    }

    @BindingMethod
    public CompletionStage<Object> abortUpload(String key, String uploadId) {
        return checked("abortMultipartUpload", key).thenCompose(k -> uploads.abort(key, uploadId)).thenApply(v -> null);
    }

    /** Completes an upload from {@code parts} (JSON {@code [{partNumber, etag}]}); answers the object's metadata. */
    @BindingMethod
    public CompletionStage<String> completeUpload(String key, String uploadId, String parts) {
        return checked("completeMultipartUpload", key).thenCompose(k -> {
            byte[] v = new byte[16];
            RANDOM.nextBytes(v);
            JsonObject header = new JsonObject().put("key", key).put("version", HexFormat.of().formatHex(v)).put("uploaded", clock.nowMs());
            return uploads.complete(key, uploadId, new JsonArray(parts), k, header);
        }).thenApply(h -> {
            // the header's fields in the order put writes them, so every object reads alike
            return new JsonObject().put("key", h.getString("key")).put("version", h.getString("version")).put("size", h.getLong("size"))
                    .put("etag", h.getString("etag")).put("uploaded", h.getLong("uploaded")).put("httpMetadata", h.getJsonObject("httpMetadata"))
                    .put("customMetadata", h.getJsonObject("customMetadata")).put("checksums", h.getJsonObject("checksums")).encode();
        });
    }

    /** Deletes the objects named in {@code keys} (a JSON array of names). */
    @BindingMethod
    public CompletionStage<Object> delete(String keys) {
        JsonArray names = new JsonArray(keys);
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (Object n : names) {
            String name = String.valueOf(n);
            all.add(checked("delete", name).thenCompose(bucket::delete));
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenApply(v -> null);
    }

    /**
     * A listing as JSON ({@code {objects: [metadata], truncated, cursor?, delimitedPrefixes}}): names
     * after {@code startAfter} and after the cursor's, starting with {@code prefix}, grouped at
     * {@code delimiter}. The cursor is the last name (or delimited prefix) returned, so a page walks
     * the bucket's listing from the prefix's start: listing deep into a large bucket costs the keys before it.
     */
    @BindingMethod
    public CompletionStage<String> list(String keyPrefix, String delimiter, String cursor, String startAfter, double limit,
                                        boolean includeHttp, boolean includeCustom) {
        String bad = R2Rules.listLimit(limit);
        if (bad != null) {
            return CompletableFuture.failedFuture(new BindingCallException("Error", bad));
        }
        String p = keyPrefix == null ? "" : keyPrefix;
        String after;
        try {
            String c = cursor == null || cursor.isEmpty() ? null : new String(Base64.getDecoder().decode(cursor), StandardCharsets.UTF_8);
            after = c == null ? startAfter : startAfter == null || c.compareTo(startAfter) > 0 ? c : startAfter;
            store();
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(new BindingCallException("Error", "list: The specified cursor is not valid."));
        } catch (BindingCallException e) {
            return CompletableFuture.failedFuture(e);
        }
        int max = Double.isNaN(limit) ? R2Rules.MAX_LIST_LIMIT : (int) limit;
        List<String> names = new ArrayList<>();
        TreeSet<String> groups = new TreeSet<>();
        List<String> order = new ArrayList<>();
        return scan(prefix + OrderedKeyCodec.listPrefix(p), null, p, delimiter, after, max, names, groups, order).thenCompose(truncated -> {
            List<CompletableFuture<Optional<Read>>> reads = names.stream().map(this::read).toList();
            return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(v -> {
                JsonArray objects = new JsonArray();
                for (CompletableFuture<Optional<Read>> r : reads) {
                    r.join().ifPresent(o -> {
                        JsonObject h = o.entry.header().copy();
                        if (!includeHttp) {
                            h.put("httpMetadata", new JsonObject());
                        }
                        if (!includeCustom) {
                            h.put("customMetadata", new JsonObject());
                        }
                        objects.add(h);
                    });
                }
                JsonObject out = new JsonObject().put("objects", objects).put("truncated", truncated);
                if (truncated) {
                    // the last name returned, in base64 (miniflare's form; R2's own cursors are opaque too)
                    out.put("cursor", Base64.getEncoder().encodeToString(order.get(order.size() - 1).getBytes(StandardCharsets.UTF_8)));
                }
                return out.put("delimitedPrefixes", new JsonArray(new ArrayList<>(groups))).encode();
            });
        });
    }

    /** Walks the bucket listing, collecting names and delimited prefixes after {@code after}; completes with whether more remain. */
    private CompletableFuture<Boolean> scan(String bucketPrefix, String bucketCursor, String p, String delimiter, String after, int max,
                                            List<String> names, TreeSet<String> groups, List<String> order) {
        return bucket.list(bucketPrefix, bucketCursor, 1000).thenCompose(page -> {
            for (String k : page.keys()) {
                String name = OrderedKeyCodec.decode(k.substring(prefix.length()));
                if (!name.startsWith(p)) {
                    continue;
                }
                String item = name;
                if (delimiter != null && !delimiter.isEmpty()) {
                    int d = name.indexOf(delimiter, p.length());
                    if (d >= 0) {
                        item = name.substring(0, d + delimiter.length());
                    }
                }
                if (after != null && item.compareTo(after) <= 0 || (after != null && after.startsWith(item) && !item.equals(name))) {
                    continue;
                }
                if (!order.isEmpty() && order.get(order.size() - 1).equals(item)) {
                    continue; // another name of the same delimited prefix
                }
                if (order.size() == max) {
                    return CompletableFuture.completedFuture(true);
                }
                order.add(item);
                if (item.equals(name)) {
                    names.add(name);
                } else {
                    groups.add(item);
                }
            }
            return page.last() ? CompletableFuture.completedFuture(false)
                    : scan(bucketPrefix, page.nextCursor(), p, delimiter, after, max, names, groups, order);
        });
    }

    private record Read(StoredEntry entry, String version) {
    }

    private CompletableFuture<Optional<Read>> read(String key) {
        String k = prefix + OrderedKeyCodec.encode(key);
        return bucket.get(k).thenApply(o -> o.map((StoredObject s) -> new Read(StoredEntry.decode(StoredEntry.R2, s.bytes(), k), s.version())));
    }

    private static boolean holds(JsonObject onlyIf, JsonObject header) {
        return R2Rules.holds(header == null ? null : header.getString("etag"), header == null ? 0 : header.getLong("uploaded"),
                onlyIf.getString("etagMatches"), onlyIf.getString("etagDoesNotMatch"), number(onlyIf, "uploadedBefore"),
                number(onlyIf, "uploadedAfter"), onlyIf.getBoolean("secondsGranularity", false));
    }

    private static double number(JsonObject o, String field) {
        Number n = o.getNumber(field);
        return n == null ? Double.NaN : n.doubleValue();
    }

    /** The bucket key of a valid name, or a failed future with R2's error. */
    private CompletableFuture<String> checked(String op, String key) {
        String bad = R2Rules.key(op, key);
        if (bad != null) {
            return CompletableFuture.failedFuture(new BindingCallException("Error", bad));
        }
        try {
            store();
        } catch (BindingCallException e) {
            return CompletableFuture.failedFuture(e);
        }
        return CompletableFuture.completedFuture(prefix + OrderedKeyCodec.encode(key));
    }

    private BucketStore store() {
        if (bucket == null) {
            throw new BindingCallException("Error", "R2 binding " + binding + " has no fleet bucket in this process (deploy-tool's load check)");
        }
        return bucket;
    }

    private static String hex(String algorithm, byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is part of every JDK", e);
        }
    }
}
