package dev.cellgate.core.bindings;

import dev.cellgate.core.logic.R2Rules;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.spi.js.BindingCallException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * R2 multipart uploads of one bucket, kept in the fleet bucket so that any node can continue an
 * upload another started: {@code r2/.uploads/<bucket>/<uploadId>/upload} (the object's key and
 * metadata) and {@code …/part-<n>} (a part, its etag in the header). Bucket names cannot start with
 * a dot, so this never meets a bucket's objects. Completing checks the parts as R2 does (listed
 * etags, sizes), writes the object (etag: MD5 of the parts' MD5s, {@code -<count>}, as R2's) and
 * deletes the upload. The object is assembled in memory.
 */
final class R2Uploads {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String GONE = "The specified multipart upload does not exist. (10024)";

    private final BucketStore bucket;
    private final String root;

    R2Uploads(BucketStore bucket, String bucketName) {
        this.bucket = bucket;
        this.root = "r2/.uploads/" + bucketName + "/";
    }

    CompletableFuture<String> create(String key, JsonObject httpMetadata, JsonObject customMetadata) {
        byte[] id = new byte[24];
        RANDOM.nextBytes(id);
        String uploadId = HexFormat.of().formatHex(id);
        JsonObject upload = new JsonObject().put("key", key).put("httpMetadata", httpMetadata).put("customMetadata", customMetadata);
        return bucket.putIfAbsent(root + uploadId + "/upload", upload.encode().getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .thenApply(o -> {
                    written(o, "createMultipartUpload");
                    return uploadId;
                });
    }

    /** Stores part {@code n}; answers its etag. */
    CompletableFuture<String> part(String key, String uploadId, int n, byte[] bytes) {
        return upload(key, uploadId, "uploadPart").thenCompose(u -> {
            byte[] e = new byte[16];
            RANDOM.nextBytes(e);
            String etag = HexFormat.of().formatHex(e);
            JsonObject header = new JsonObject().put("etag", etag).put("md5", hex(md5(bytes)));
            return bucket.put(partKey(uploadId, n), new StoredEntry(header, bytes).encode(StoredEntry.R2)).thenApply(o -> {
                written(o, "uploadPart");
                return etag;
            });
        });
    }

    CompletableFuture<Void> abort(String key, String uploadId) {
        return bucket.get(root + uploadId + "/upload").thenCompose(u -> u.isEmpty() ? CompletableFuture.completedFuture(null) : drop(uploadId));
    }

    /**
     * Checks {@code parts} ({@code [{partNumber, etag}]}, in the order given) and writes the object
     * whose header {@code header} completes (key, version, uploaded are the caller's); answers that header.
     */
    CompletableFuture<JsonObject> complete(String key, String uploadId, JsonArray parts, String objectKey, JsonObject header) {
        return upload(key, uploadId, "completeMultipartUpload").thenCompose(u -> {
            List<CompletableFuture<Optional<StoredEntry>>> reads = new ArrayList<>();
            for (int i = 0; i < parts.size(); i++) {
                int n = parts.getJsonObject(i).getInteger("partNumber", -1);
                String k = partKey(uploadId, n);
                reads.add(bucket.get(k).thenApply(o -> o.map(s -> StoredEntry.decode(StoredEntry.R2, s.bytes(), k))));
            }
            return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenCompose(v -> {
                long[] sizes = new long[parts.size()];
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                ByteArrayOutputStream md5s = new ByteArrayOutputStream();
                for (int i = 0; i < parts.size(); i++) {
                    Optional<StoredEntry> p = reads.get(i).join();
                    if (p.isEmpty() || !p.get().header().getString("etag").equals(parts.getJsonObject(i).getString("etag"))) {
                        throw new BindingCallException("Error", "completeMultipartUpload: One or more of the specified parts could not be found. (10025)");
                    }
                    sizes[i] = p.get().value().length;
                    all.writeBytes(p.get().value());
                    md5s.writeBytes(HexFormat.of().parseHex(p.get().header().getString("md5")));
                }
                String bad = R2Rules.completable(sizes);
                if (bad != null) {
                    throw new BindingCallException("Error", bad);
                }
                byte[] bytes = all.toByteArray();
                JsonObject h = header.copy().put("size", bytes.length).put("etag", hex(md5(md5s.toByteArray())) + "-" + parts.size())
                        .put("httpMetadata", u.getJsonObject("httpMetadata")).put("customMetadata", u.getJsonObject("customMetadata"))
                        .put("checksums", new JsonObject());
                return bucket.put(objectKey, new StoredEntry(h, bytes).encode(StoredEntry.R2)).thenCompose(o -> {
                    written(o, "completeMultipartUpload");
                    return drop(uploadId).thenApply(x -> h);
                });
            });
        });
    }

    private CompletableFuture<JsonObject> upload(String key, String uploadId, String op) {
        if (!uploadId.matches("[0-9a-f]{48}")) {
            return CompletableFuture.failedFuture(new BindingCallException("Error", op + ": " + GONE));
        }
        return bucket.get(root + uploadId + "/upload").thenApply(o -> {
            JsonObject u = o.map(s -> new JsonObject(new String(s.bytes(), java.nio.charset.StandardCharsets.UTF_8))).orElse(null);
            if (u == null || !u.getString("key").equals(key)) {
                throw new BindingCallException("Error", op + ": " + GONE);
            }
            return u;
        });
    }

    /** Deletes the upload record first (the upload is gone from then on), then its parts. */
    private CompletableFuture<Void> drop(String uploadId) {
        String dir = root + uploadId + "/";
        return bucket.delete(dir + "upload").thenCompose(v -> deleteAll(dir, null));
    }

    private CompletableFuture<Void> deleteAll(String dir, String cursor) {
        return bucket.list(dir, cursor, 1000).thenCompose(page -> {
            List<CompletableFuture<Void>> ds = page.keys().stream().map(bucket::delete).toList();
            return CompletableFuture.allOf(ds.toArray(CompletableFuture[]::new))
                    .thenCompose(v -> page.last() ? CompletableFuture.completedFuture(null) : deleteAll(dir, page.nextCursor()));
        });
    }

    private String partKey(String uploadId, int n) {
        return root + uploadId + "/part-" + n;
    }

    private static void written(WriteOutcome o, String op) {
        if (!o.written()) {
            throw new BindingCallException("Error", op + ": the fleet bucket did not confirm the write (" + o + "); it may or may not have happened");
        }
    }

    private static byte[] md5(byte[] b) {
        try {
            return MessageDigest.getInstance("MD5").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is part of every JDK", e);
        }
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
